package logs

import "syscall"

// onTmpfs reports whether dir is on tmpfs, a file system in memory,
// where an fsync has nothing to wait for.
func onTmpfs(dir string) bool {
	var st syscall.Statfs_t
	return syscall.Statfs(dir, &st) == nil && st.Type == 0x01021994 // TMPFS_MAGIC
}
