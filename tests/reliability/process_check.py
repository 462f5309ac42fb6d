#!/usr/bin/env python3
"""Issue 12 at the level of whole processes: what a hostile dump or a careless user does to
`animdex`, checked by running the binary as they would.

Usage: process_check.py ANIMDEX_BINARY CASE        (exit 77 = skipped, with the reason printed)
Cases:
  memory       peak RSS of `index` over adversarial inputs, `info` on a huge set, a runaway `sql`
  read-only    readers in a read-only folder (DELETE and WAL databases), as another user
  shared       a database the owner indexes again after another user read it
  lock         a second writer waits for the first, or says which process holds the lock
  special      FIFOs and devices never block `index`, `info`, `pose` or `convert`
  output       a full disk (/dev/full) is an error for every verb that writes
  parameters   named-query parameters keep their declared types
  docs         `report docs` folders are unique per label; hostile names are escaped
  destructive  `demo` and `sample` refuse folders they did not make
  usage        --db "" / :memory:, pose --frame nan, a foreign SQLite file
"""
import os
import re
import shutil
import socket
import sqlite3
import subprocess
import sys
import tempfile
import threading
import time

BINARY = None
NOBODY = 65534
RSS_LIMIT_MB = 256


class Skip(Exception):
    pass


def run(*args, user=None, timeout=120, cwd=None):
    """Runs animdex (as `user` when given); returns (exit code, stdout, stderr)."""
    command = [BINARY, *args]
    if user is not None:
        command = ["setpriv", f"--reuid={user}", f"--regid={user}", "--clear-groups", *command]
    process = subprocess.Popen(command, stdout=subprocess.PIPE, stderr=subprocess.PIPE, cwd=cwd,
                               stdin=subprocess.DEVNULL)
    try:
        out, err = process.communicate(timeout=timeout)
    except subprocess.TimeoutExpired:
        process.kill()
        raise AssertionError(f"timed out after {timeout} s (blocked?): {' '.join(args)}")
    return process.returncode, out.decode(errors="replace"), err.decode(errors="replace")


def run_measured(*args, timeout=300):
    """Runs animdex and returns (exit code, stderr, peak RSS in MiB) of that process alone."""
    pid = os.fork()
    if pid == 0:
        devnull = os.open(os.devnull, os.O_RDWR)
        os.dup2(devnull, 0)
        os.dup2(devnull, 1)
        log = os.open(os.path.join(tempfile.gettempdir(), f"animdex-measured-{os.getpid()}.log"),
                      os.O_WRONLY | os.O_CREAT | os.O_TRUNC, 0o644)
        os.dup2(log, 2)
        os.execv(BINARY, [BINARY, *args])
    deadline = time.time() + timeout
    while True:
        done, status, usage = os.wait4(pid, os.WNOHANG)
        if done:
            break
        if time.time() > deadline:
            os.kill(pid, 9)
            os.wait4(pid, 0)
            raise AssertionError(f"timed out: {' '.join(args)}")
        time.sleep(0.05)
    log_path = os.path.join(tempfile.gettempdir(), f"animdex-measured-{pid}.log")
    with open(log_path, errors="replace") as log:
        err = log.read()
    os.remove(log_path)
    return os.waitstatus_to_exitcode(status), err, usage.ru_maxrss / 1024.0


def check(condition, message):
    if not condition:
        raise AssertionError(message)
    print(f"ok: {message}")


def sample(directory, *extra):
    code, _, err = run("sample", directory, "--characters", "3", *extra)
    check(code == 0, f"sample written to {directory} ({err.strip()})")


def index(directory, database, *extra, user=None):
    # These checks index one tree under several labels on purpose (locks, sharing, labels): the
    # overlap that `index` refuses by default is what they need.
    overlap = ("--allow-overlap",) if "--label" in extra else ()
    return run("index", directory, "--db", database, "--quiet", *overlap, *extra, user=user)


def bar(path, entry_count, set_type=1, declared=None, size=None):
    """A motion set of dummy (size 0) Anb slots, as a hostile dump would hold."""
    with open(path, "wb") as out:
        count = entry_count if declared is None else declared
        out.write(b"BAR\x01" + count.to_bytes(4, "little") + bytes(4) + set_type.to_bytes(4, "little"))
        entry = (17).to_bytes(2, "little") + bytes(2) + b"A000" + bytes(8)
        chunk = entry * 65536
        left = entry_count
        while left:
            step = min(left, 65536)
            out.write(chunk[: 16 * step])
            left -= step
        if size is not None:
            out.truncate(size)  # sparse: a large file that costs no disk


def check_rss(rss, what):
    if "ASAN_OPTIONS" in os.environ:  # AddressSanitizer's shadow memory and quarantine are not ours
        print(f"not judged under AddressSanitizer: {what} peak RSS {rss:.1f} MiB")
        return
    check(rss < RSS_LIMIT_MB, f"{what}: peak RSS {rss:.1f} MiB < {RSS_LIMIT_MB} MiB")


def case_memory(work):
    tree = os.path.join(work, "hostile")
    sample(tree, "--kh2", "--nsbca")
    os.makedirs(os.path.join(tree, "obj"), exist_ok=True)
    bar(os.path.join(tree, "obj", "P_1M.mset"), 1_000_000)          # 16 MB of dummy slots
    bar(os.path.join(tree, "obj", "P_20K.mset"), 20_000)            # large but within budget: parsed
    bar(os.path.join(tree, "obj", "P_4M.mset"), 4_000_000)          # 64 MB: over --max-file-size
    for name in "abcd":                                             # four 500 MB files
        bar(os.path.join(tree, f"big_{name}.bar"), 1000, size=500 << 20)
    with open(os.path.join(tree, "lines.mot"), "wb") as out:        # LightWave: 15 MB of empty lines
        out.write(b"LWMO\n3\n" + b"\n" * (15 << 20))
    with open(os.path.join(tree, "kuper.txt"), "wb") as out:        # Kuper: 3.5 M frames of 2 axes
        out.write(b"Axes = a, b\n" + b"1 2\n" * 3_500_000)
    # Files each near both limits (15 MB read, ~29 MiB decoded): only the bound on files in flight
    # keeps six of them from being held at once.
    heavy = os.path.join(work, "heavy")
    os.makedirs(heavy)
    for n in range(6):
        bar(os.path.join(heavy, f"P_HEAVY{n}.mset"), 19_000, size=15 << 20)
    database = os.path.join(work, "hostile.db")
    code, err, rss = run_measured("index", tree, heavy, "--db", database, "--threads", "2", "--quiet")
    print(f"index of the adversarial tree: exit {code}, peak RSS {rss:.1f} MiB")
    check(code == 3, "index finished, reporting the files it could not parse (exit 3)")
    check_rss(rss, "index of the adversarial tree")
    db = sqlite3.connect(f"file:{database}?mode=ro", uri=True)
    rows = dict(db.execute("SELECT path, status || ': ' || COALESCE(error, '') FROM files"))
    check(rows["hostile/obj/P_1M.mset"].startswith("error: at offset 0x4: expected BAR entries that fit the 32 MiB"),
          "the 1M-slot set is an error at its entry count: " + rows["hostile/obj/P_1M.mset"])
    check(rows["hostile/obj/P_20K.mset"] == "ok: ", "the 20,000-slot set is parsed")
    check(all(rows[f"heavy/P_HEAVY{n}.mset"] == "ok: " for n in range(6)), "the six heavy sets are parsed")
    check("over the 16777216-byte limit" in rows["hostile/big_a.bar"], "a 500 MB file is only detected")
    check("MiB a file may decode to" in rows["hostile/lines.mot"], "15 MB of empty lines: " + rows["hostile/lines.mot"])
    check("MiB a file may decode to" in rows["hostile/kuper.txt"], "3.5 M Kuper frames: " + rows["hostile/kuper.txt"])
    check(db.execute("SELECT COUNT(*) FROM files WHERE status = 'ok'").fetchone()[0] >= 10,
          "the sample's files beside them are all stored")
    db.close()

    code, err, rss = run_measured("info", os.path.join(tree, "obj", "P_20K.mset"), "--format", "json")
    check(code == 0, f"info --format json on 20,000 slots: exit {code}")
    check_rss(rss, "info --format json on 20,000 slots")
    code, err, rss = run_measured("info", os.path.join(tree, "obj", "P_1M.mset"))
    check(code == 3 and "MiB a file may decode to" in err, f"info on 1M slots stops at the budget ({rss:.1f} MiB)")
    code, err, rss = run_measured("sql", "WITH RECURSIVE c(x) AS (SELECT 1 UNION ALL SELECT x + 1 FROM c) "
                                  "SELECT x, printf('%.200c', 'x') FROM c", "--db", database)
    check(code == 1 and "add LIMIT" in err, f"a runaway recursive CTE stops with a message: {err.strip()}")
    check_rss(rss, "the runaway recursive CTE")


def require_root_and_setpriv():
    if os.geteuid() != 0 or shutil.which("setpriv") is None:
        raise Skip("needs root and setpriv to act as another user")
    code, _, _ = run("--version", user=NOBODY)
    if code != 0:
        raise Skip(f"user nobody cannot run {BINARY} (a folder on its path is private)")


def public_dir(work, name):
    path = os.path.join(work, name)
    os.makedirs(path)
    os.chmod(path, 0o755)
    return path


def case_read_only(work):
    require_root_and_setpriv()
    os.chmod(work, 0o755)
    folder = public_dir(work, "ro")
    sample(os.path.join(folder, "dump"), "--no-problem-files")
    database = os.path.join(folder, "r.db")
    for label in ("a", "b"):
        check(index(os.path.join(folder, "dump"), database, "--label", label)[0] == 0, f"indexed label {label}")
    check(sorted(os.listdir(folder)) == ["dump", "r.db"], "index leaves one file, no -wal/-shm (DELETE mode)")
    for path in (folder, database):
        os.chmod(path, 0o555 if path == folder else 0o444)
    out_dir = public_dir(work, "out")
    os.chown(out_dir, NOBODY, NOBODY)
    verbs = [("sql", "SELECT COUNT(*) FROM files", "--db", database),
             ("query", "characters", "--db", database),
             ("report", "reuse", "--db", database),
             ("report", "docs", "--db", database, "--out", os.path.join(out_dir, "docs")),
             ("diff", "--db", database, "--from", "a", "--to", "b")]
    for verb in verbs:
        code, out, err = run(*verb, user=NOBODY)
        check(code == 0, f"as nobody in a read-only folder: {' '.join(verb[:2])} -> exit {code} {err.strip()}")
    check(sorted(os.listdir(folder)) == ["dump", "r.db"], "readers created nothing next to the database")

    # A database left in WAL mode (an older animdex, or a reader held it at the end of index).
    os.chmod(folder, 0o755)
    os.chmod(database, 0o644)
    connection = sqlite3.connect(database)
    check(connection.execute("PRAGMA journal_mode = WAL").fetchone()[0] == "wal", "database switched to WAL")
    connection.close()
    os.chmod(folder, 0o555)
    code, out, err = run("sql", "SELECT COUNT(*) AS n FROM dumps", "--db", database, "--format", "csv", user=NOBODY)
    check(code == 0 and out.splitlines()[-1] == "2", f"a WAL database in a read-only folder reads: {err.strip()}")
    os.chmod(folder, 0o755)


def case_shared(work):
    require_root_and_setpriv()
    os.chmod(work, 0o755)
    folder = public_dir(work, "shared")
    sample(os.path.join(folder, "dump"), "--no-problem-files")
    os.chown(folder, NOBODY, NOBODY)
    database = os.path.join(folder, "s.db")
    check(index(os.path.join(folder, "dump"), database, user=NOBODY)[0] == 0, "the owner (nobody) indexed")
    code, _, err = run("query", "characters", "--db", database)  # root reads: another user
    check(code == 0, f"another user (root) read it: {err.strip()}")
    leftovers = [name for name in os.listdir(folder) if name.startswith("s.db-")]
    check(leftovers == [], f"the reader left no -wal/-shm/-journal files: {leftovers}")
    code, _, err = index(os.path.join(folder, "dump"), database, "--label", "again", user=NOBODY)
    check(code == 0, f"the owner's next index works: exit {code} {err.strip()}")


def case_lock(work):
    dump = os.path.join(work, "dump")
    sample(dump, "--no-problem-files")
    database = os.path.join(work, "l.db")
    check(index(dump, database)[0] == 0, "first index")
    me = f"process {os.getpid()}"
    # At rest the file is in DELETE mode: a writer holding it stops `index` while it opens.
    holder = sqlite3.connect(database, isolation_level=None, check_same_thread=False)
    holder.execute("BEGIN IMMEDIATE")
    started = time.time()
    code, _, err = index(dump, database, "--label", "second", "--wait", "1")
    check(code == 1 and f"is busy, held by another writer: {me}" in err,
          f"DELETE mode: a second writer gives up after --wait and names the holder: {err.strip()}")
    check(time.time() - started >= 0.9, "it waited before giving up")
    threading.Timer(1.5, lambda: holder.execute("COMMIT")).start()
    code, _, err = index(dump, database, "--label", "second", "--wait", "60")
    check(code == 0, f"a second writer waits for the first to finish, then indexes: {err.strip()}")
    # While an index runs the file is in WAL mode: then the wait is BEGIN IMMEDIATE's.
    check(holder.execute("PRAGMA journal_mode = WAL").fetchone()[0] == "wal", "database in WAL mode")
    holder.execute("BEGIN IMMEDIATE")
    code, _, err = index(dump, database, "--label", "third", "--wait", "1")
    check(code == 1 and f"is busy, held by another writer: {me}" in err,
          f"WAL mode: the writer holding the -shm write lock is named: {err.strip()}")
    threading.Timer(1.5, lambda: holder.execute("COMMIT")).start()
    code, _, err = index(dump, database, "--label", "third", "--wait", "60")
    check(code == 0, f"WAL mode: the second writer waits, then indexes: {err.strip()}")
    holder.close()
    # A reader in the middle of a long query, on the file at rest (DELETE mode: the holder above
    # still had it open when that index finished, so it stayed in WAL mode; set it back).
    sqlite3.connect(database).execute("PRAGMA journal_mode = DELETE").fetchone()
    reader = sqlite3.connect(database, isolation_level=None, check_same_thread=False)
    reader.execute("BEGIN")
    reader.execute("SELECT COUNT(*) FROM files").fetchone()
    code, _, err = index(dump, database, "--label", "fourth", "--wait", "1")
    check(code == 1 and f"is busy, held by a reader: {me}" in err, f"a reader holding the file is named: {err.strip()}")
    reader.execute("COMMIT")
    reader.close()


def case_special(work):
    dump = os.path.join(work, "dump")
    sample(dump, "--no-problem-files")
    fifo = os.path.join(dump, "pipe.mot")
    os.mkfifo(fifo)
    os.symlink("/dev/zero", os.path.join(dump, "zero.mot"))
    listener = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
    listener.bind(os.path.join(dump, "sock.mot"))
    database = os.path.join(work, "f.db")
    code, _, err = index(dump, database)
    check(code == 0, f"index with a FIFO and a device in the tree finishes: {err.strip()}")
    db = sqlite3.connect(f"file:{database}?mode=ro", uri=True)
    rows = dict(db.execute("SELECT path, status || ': ' || error FROM files WHERE path LIKE '%.mot' AND path NOT LIKE 'files/%'"))
    check(rows == {"pipe.mot": "unknown: not a regular file (FIFO); not read",
                   "sock.mot": "unknown: not a regular file (socket); not read",
                   "zero.mot": "unknown: not a regular file (character device); not read"}, f"rows say why: {rows}")
    listener.close()
    for verb in (("info", fifo), ("pose", fifo, "--frame", "1"), ("convert", fifo, os.path.join(work, "o.mot")),
                 ("export", fifo, "--bake", "30")):
        code, _, err = run(*verb, timeout=30)
        check(code != 0 and "FIFO" in err, f"{verb[0]} on a FIFO returns at once: exit {code} {err.strip()}")


def case_output(work):
    dump = os.path.join(work, "dump")
    sample(dump)
    database = os.path.join(work, "o.db")
    check(index(dump, database, "--label", "a")[0] == 3 and index(dump, database, "--label", "b")[0] == 3, "indexed")
    lw = os.path.join(dump, "files", "lw", "camera.mot")
    for verb in (("diff", "--db", database, "--from", "a", "--to", "b", "--out", "/dev/full"),
                 ("report", "reuse", "--db", database, "--out", "/dev/full"),
                 ("export", lw, "--bake", "30", "--out", "/dev/full")):
        code, out, err = run(*verb)
        check(code == 1 and "No space left on device" in err and "wrote" not in err,
              f"{' '.join(verb[:2])} --out /dev/full fails: {err.strip()}")
    for verb in (("sql", "SELECT * FROM files", "--db", database), ("query", "characters", "--db", database),
                 ("queries",), ("formats",), ("info", lw)):
        with open("/dev/full", "w") as full:
            result = subprocess.run([BINARY, *verb], stdout=full, stderr=subprocess.PIPE, text=True)
        check(result.returncode == 1 and "cannot write the output" in result.stderr, f"{verb[0]} > /dev/full exits 1")


def case_parameters(work):
    dump = os.path.join(work, "dump")
    sample(dump, "--kh2", "--no-problem-files")
    shutil.copy(os.path.join(dump, "kh2", "obj", "P_SAMPLE.mset"), os.path.join(dump, "kh2", "obj", "P_0008.mset"))
    shutil.copy(os.path.join(dump, "kh2", "obj", "P_SAMPLE.mset"), os.path.join(dump, "kh2", "obj", "P_8.mset"))
    database = os.path.join(work, "p.db")
    check(index(dump, database, "--label", "007")[0] == 0, "indexed as label 007")
    code, out, err = run("query", "characters", "--db", database, "-p", "dump", "007", "--format", "csv")
    check(code == 0 and len(out.splitlines()) > 1, "-p dump 007 finds the label 007 (not the number 7)")
    code, out, err = run("query", "dummy-slots", "--db", database, "-p", "file", "0008", "--format", "csv")
    paths = {line.split(",")[1] for line in out.splitlines()[1:]}
    check(code == 0 and paths == {"kh2/obj/P_0008.mset"}, f"-p file 0008 matches only P_0008: {paths}")
    code, out, err = run("query", "bone-users", "--db", database, "-p", "bone", "no_such_bone")
    # A bone may be given by name; a name no track carries is a usage error listing the names there are.
    check(code == 2 and "no bone named 'no_such_bone'" in err and "there are:" in err,
          f"a bone name no track carries: {err.strip()}")
    code, out, err = run("sql", "SELECT :v AS v, typeof(:v) AS t", "--db", database, "-p", "v", "007",
                         "--format", "csv")
    check(out.splitlines()[-1] == "007,text", "free SQL keeps 007 as text")


def case_docs(work):
    dump = os.path.join(work, "dump")
    sample(dump, "--no-problem-files")
    hostile = ["<svg onload=alert(1)>.mot", "[x](javascript:alert(1)).mot", "\x1b[31mred\x1b[0m.mot", "a|b.mot"]
    for name in hostile:
        with open(os.path.join(dump, name), "wb") as out:
            out.write(b"not an animation")
    database = os.path.join(work, "d.db")
    for label in ("v1/ntsc", "v1_ntsc"):
        check(index(dump, database, "--label", label)[0] == 0, f"indexed as {label}")
    docs = os.path.join(work, "docs")
    code, _, err = run("report", "docs", "--db", database, "--out", docs)
    check(code == 0, f"report docs: {err.strip()}")
    folders = sorted(name for name in os.listdir(docs) if os.path.isdir(os.path.join(docs, name)))
    check(len(folders) == 2 and "v1_ntsc" in folders, f"one folder per label: {folders}")
    readme = open(os.path.join(docs, "README.md")).read()
    check("| v1/ntsc |" in readme and "| v1\\_ntsc |" not in readme, "labels appear as themselves in README.md")
    for folder in folders:
        files_md = open(os.path.join(docs, folder, "files.md")).read()
        check("<svg" not in files_md and "&lt;svg onload=alert(1)&gt;.mot" in files_md, f"{folder}: no raw HTML")
        check(re.search(r"(?<!\\)\]\(javascript", files_md) is None and "\\[x\\](javascript" in files_md,
              f"{folder}: no link from a file name")
        check("\x1b" not in files_md and "a\\|b.mot" in files_md, f"{folder}: no escapes, pipes escaped")
    code, out, _ = run("sql", "SELECT path FROM files", "--db", database)
    check(code == 0 and "\x1b" not in out and "?[31mred?[0m.mot" in out, "table output replaces control characters")


def case_destructive(work):
    demo = os.path.join(work, "demo")
    os.makedirs(demo)
    with open(os.path.join(demo, "precious.txt"), "w") as out:
        out.write("mine")
    code, _, err = run("demo", "--dir", demo, "--characters", "2")
    check(code == 2 and "--force" in err, f"demo refuses a folder it did not make: {err.strip()}")
    check(os.listdir(demo) == ["precious.txt"], "and touches nothing in it")
    fresh = os.path.join(work, "fresh")
    check(run("demo", "--dir", fresh, "--characters", "2")[0] == 0, "demo into a new folder")
    check(run("demo", "--dir", fresh, "--characters", "2")[0] == 0, "and again into the folder it made")
    os.remove(os.path.join(fresh, ".animdex-demo"))  # as a demo folder from before the marker
    check(run("demo", "--dir", fresh, "--characters", "3")[0] == 0, "and into one an older demo made (only its files)")
    check(run("demo", "--dir", demo, "--characters", "2", "--force")[0] == 0, "--force uses the folder")
    check(open(os.path.join(demo, "precious.txt")).read() == "mine", "--force still keeps other files")
    lookalike = os.path.join(work, "lookalike")  # only dump/, as a demo folder has: but it is the user's
    os.makedirs(os.path.join(lookalike, "dump"))
    with open(os.path.join(lookalike, "dump", "mine.mot"), "w") as out:
        out.write("mine")
    code, _, err = run("demo", "--dir", lookalike, "--characters", "2")
    check(code == 2 and os.path.exists(os.path.join(lookalike, "dump", "mine.mot")),
          "a folder that only looks like the demo's is refused and kept")
    target = os.path.join(work, "samples")
    os.makedirs(target)
    with open(os.path.join(target, "keep.mot"), "w") as out:
        out.write("mine")
    code, _, err = run("sample", target)
    check(code == 2 and "did not write" in err, f"sample refuses a folder with other files: {err.strip()}")
    check(run("sample", target, "--force")[0] == 0, "sample --force writes into it")
    again = os.path.join(work, "again")
    check(run("sample", again, "--kh2")[0] == 0 and run("sample", again, "--kh2")[0] == 0,
          "sample writes again into a folder it wrote with the same options")


def case_usage(work):
    dump = os.path.join(work, "dump")
    sample(dump, "--no-problem-files")
    for database in ("", ":memory:", "file:x.db?mode=memory", work):
        code, _, err = index(dump, database)
        check(code == 2 and err.startswith("animdex: error: "), f"index --db {database!r} is a usage error: {err.strip()}")
    lw = os.path.join(dump, "files", "lw", "camera.mot")
    for value in ("nan", "inf", "-inf"):
        code, _, err = run("pose", lw, "--frame", value)
        check(code == 2 and err.startswith("animdex: error: ") and "animdex pose --help" in err,
              f"pose --frame {value} is a usage error: {err.strip()}")
    foreign = os.path.join(work, "foreign.db")
    connection = sqlite3.connect(foreign)
    connection.execute("CREATE TABLE notes(text)")
    connection.execute("INSERT INTO notes VALUES ('mine')")
    connection.commit()
    connection.close()
    before = open(foreign, "rb").read()
    code, _, err = index(dump, foreign)
    check(code == 1 and "is not an animdex database" in err, f"a foreign SQLite file is refused: {err.strip()}")
    check(open(foreign, "rb").read() == before and not os.path.exists(foreign + "-wal"),
          "not one byte of it changed (journal mode included)")


CASES = {"memory": case_memory, "read-only": case_read_only, "shared": case_shared, "lock": case_lock,
         "special": case_special, "output": case_output, "parameters": case_parameters, "docs": case_docs,
         "destructive": case_destructive, "usage": case_usage}


def main():
    global BINARY
    if len(sys.argv) != 3 or sys.argv[2] not in CASES:
        print(__doc__)
        return 2
    BINARY = os.path.abspath(sys.argv[1])
    work = tempfile.mkdtemp(prefix="animdex-reliability-")
    try:
        CASES[sys.argv[2]](work)
    except Skip as reason:
        print(f"skipped: {reason}")
        return 77
    except AssertionError as failure:
        print(f"FAILED: {failure}")
        return 1
    finally:
        for root, dirs, _ in os.walk(work):
            for name in dirs:
                os.chmod(os.path.join(root, name), 0o755)
        shutil.rmtree(work, ignore_errors=True)
    print(f"{sys.argv[2]}: every check passed")
    return 0


if __name__ == "__main__":
    sys.exit(main())
