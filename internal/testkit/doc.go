// Package testkit is what brewput's tests share: every lab's checks
// (RunLab, Invalid), timing checks guarded against a busy machine (Retry),
// a headless browser collecting a page's errors, real traces, points made
// by hand. Only tests import it; as it imports lab and the shop, their
// packages use it from external test files.
package testkit
