// Package host is what brewput knows of the machine it runs on: its
// description for the results (Detect) and the lists of CPU counts a
// sweep or a lab runs on (ParseCPUList, CheckCPUs).
package host
