// Package testkit is what brewput's own tests share, written once: the
// checks every lab's tests make, timing checks guarded against a busy
// machine, a headless browser that collects a page's errors, real traces
// and profiles to read, points made by hand, a folder's listing. Only
// tests import it.
package testkit
