// Package testkit is what brewput's tests share that needs nothing of
// brewput but its foundations: a headless browser collecting a page's
// errors, a folder's names, profile paths that cannot be written. The
// kits of a floor above live beside it: lab/labtest (every lab's checks),
// results/resultstest (points made by hand), coffee/coffeetest (a real
// trace of the shop) and measure/quiet/quiettest (timing checks guarded
// against a busy machine).
package testkit
