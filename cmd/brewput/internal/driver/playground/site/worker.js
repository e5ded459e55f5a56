// The playground's worker: it runs one brewput model command line at a
// time in the engine, off the page's thread. Go's loader (wasm_exec.js)
// follows this script in the same blob; the file system below, defined
// first, is what the engine's os package reads: the files the page hands
// over with each command (a YAML model, the calibration), in memory.
"use strict";

(() => {
  const files = new Map(); // path → Uint8Array
  const open = new Map(); // fd → {data, pos}
  let nextFD = 10;
  const err = (code) => {
    const e = new Error(code);
    e.code = code;
    return e;
  };
  const stat = (data) => ({
    dev: 0, ino: 0, mode: 0o100644, nlink: 1, uid: 0, gid: 0, rdev: 0,
    size: data.length, blksize: 4096, blocks: Math.ceil(data.length / 512),
    atimeMs: 0, mtimeMs: 0, ctimeMs: 0, isDirectory: () => false,
  });
  let console_ = "";
  const decoder = new TextDecoder("utf-8");
  globalThis.fs = {
    constants: { O_WRONLY: 1, O_RDWR: 2, O_CREAT: 64, O_TRUNC: 512, O_APPEND: 1024, O_EXCL: 128, O_DIRECTORY: 65536 },
    writeSync(fd, buf) {
      // The runtime's own output (a panic), to the console.
      console_ += decoder.decode(buf);
      const nl = console_.lastIndexOf("\n");
      if (nl >= 0) {
        console.log(console_.substring(0, nl));
        console_ = console_.substring(nl + 1);
      }
      return buf.length;
    },
    write(fd, buf, offset, length, position, cb) {
      if (fd === 1 || fd === 2) {
        cb(null, this.writeSync(fd, buf.subarray(offset, offset + length)));
        return;
      }
      cb(err("EBADF"));
    },
    open(path, flags, mode, cb) {
      const data = files.get(path);
      if (data === undefined) {
        cb(err("ENOENT"));
        return;
      }
      if (flags & 3) {
        cb(err("EROFS"));
        return;
      }
      const fd = nextFD++;
      open.set(fd, { data, pos: 0 });
      cb(null, fd);
    },
    close(fd, cb) {
      open.delete(fd);
      cb(null);
    },
    fstat(fd, cb) {
      const f = open.get(fd);
      f ? cb(null, stat(f.data)) : cb(err("EBADF"));
    },
    stat(path, cb) {
      const data = files.get(path);
      data ? cb(null, stat(data)) : cb(err("ENOENT"));
    },
    lstat(path, cb) { this.stat(path, cb); },
    read(fd, buffer, offset, length, position, cb) {
      const f = open.get(fd);
      if (!f) {
        cb(err("EBADF"));
        return;
      }
      const at = position === null || position === undefined ? f.pos : position;
      const n = Math.max(0, Math.min(length, f.data.length - at));
      buffer.set(f.data.subarray(at, at + n), offset);
      if (position === null || position === undefined) f.pos += n;
      cb(null, n);
    },
    fsync(fd, cb) { cb(null); },
  };
  for (const name of ["chmod", "chown", "fchmod", "fchown", "ftruncate", "lchown", "link", "mkdir", "readdir", "readlink", "rename", "rmdir", "symlink", "truncate", "unlink", "utimes"]) {
    globalThis.fs[name] = (...a) => a[a.length - 1](err("ENOSYS"));
  }
  const enosys = () => { throw err("ENOSYS"); };
  globalThis.process = {
    getuid: () => -1, getgid: () => -1, geteuid: () => -1, getegid: () => -1,
    getgroups: enosys, pid: -1, ppid: -1, umask: enosys,
    cwd: () => "/", chdir: enosys,
  };

  const encoder = new TextEncoder();
  let ready = null;
  globalThis.onmessage = async (ev) => {
    const m = ev.data;
    if (m.type === "init") {
      const go = new Go();
      ready = WebAssembly.instantiate(m.module, go.importObject).then((inst) => {
        go.run(inst); // main registers brewputRun, then waits for calls
      });
      await ready;
      postMessage({ type: "ready" });
      return;
    }
    if (m.type === "run") {
      await ready;
      files.clear();
      for (const [path, text] of Object.entries(m.files || {})) files.set(path, encoder.encode(text));
      const t0 = performance.now();
      const r = await globalThis.brewputRun(m.args);
      postMessage({ type: "done", id: m.id, stdout: r.stdout, said: r.said, stderr: r.stderr, code: r.code, ms: performance.now() - t0 });
    }
  };
})();
