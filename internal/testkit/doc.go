// Package testkit is what brewput's own tests share, written once: the
// checks every lab's tests make (RunLab, Invalid), timing checks guarded
// against a busy machine (Retry: effects of 2× or more only; smaller ones
// are findings brewput lessons reports, not tests), a headless browser
// that collects a page's errors (NewPage), real traces and profiles, points
// made by hand, a folder's listing. Only tests import it; as it imports
// lab and the shop, the packages those reach use it from external test
// files (package x_test).
package testkit
