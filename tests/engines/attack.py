#!/usr/bin/env python3
"""A test engine that plays like the built-in random bot, but at its first genmove attacks the
machine it runs on with ATTACK (one of ATTACKS below, `NAME` or `NAME:ARGUMENT`). If the attack
fails it says `blocked: WHY` on stderr and exits with code 1 (a crash the test can see); if it
succeeds it says `escaped: WHAT` and plays on. Attacks that leave something behind (processes)
write what a test must look for under $REFEREE_SCRATCH or the directory they are given.

Usage: attack.py ATTACK. $REFEREE is the referee binary (pass it into a sandbox with env=REFEREE).
"""
import ctypes, errno, fcntl, os, platform, signal, socket, struct, sys, termios, time
from relay import relay, start_bot

libc = ctypes.CDLL(None, use_errno=True)
libc.syscall.restype = ctypes.c_long
ARM = platform.machine() == "aarch64"
# System call numbers: (x86_64, aarch64).
NR = {
    "ptrace": (101, 117), "keyctl": (250, 219), "bpf": (321, 280), "mount": (165, 40),
    "unshare": (272, 97), "setns": (308, 268), "io_uring_setup": (425, 425),
    "perf_event_open": (298, 241), "userfaultfd": (323, 282), "open_by_handle_at": (304, 265),
    "init_module": (175, 105), "kexec_load": (246, 104), "add_key": (248, 217),
    "pivot_root": (155, 41), "process_vm_readv": (310, 270), "clone": (56, 220),
}
CLONE_NEWUSER, CLONE_NEWNS, CLONE_NEWNET = 0x10000000, 0x00020000, 0x40000000


class Blocked(Exception):
    pass


def syscall(name, *args):
    """Makes system call NAME; returns its result, or raises Blocked with the errno's name."""
    number = NR[name][1 if ARM else 0]
    result = libc.syscall(number, *[ctypes.c_long(a) if isinstance(a, int) else a for a in args])
    if result < 0:
        code = ctypes.get_errno()
        raise Blocked(f"{name}: {errno.errorcode.get(code, code)}")
    return result


def in_child(action):
    """Runs ACTION in a forked child (so a namespace or mount it makes stays there); raises
    Blocked with the child's reason if it failed."""
    read, write = os.pipe()
    pid = os.fork()
    if pid == 0:
        os.close(read)
        try:
            action()
            os._exit(0)
        except (OSError, Blocked) as e:
            os.write(write, str(e).encode()[:500])
            os._exit(1)
    os.close(write)
    why = os.read(read, 500).decode()
    _, status = os.waitpid(pid, 0)
    if status != 0:
        raise Blocked(why or f"child status {status}")


def tiocsti(fd, text):
    for ch in text:
        fcntl.ioctl(fd, termios.TIOCSTI, ch.encode())


def attack_tiocsti(_):
    # Every terminal the engine might reach: its controlling one, and any standard descriptor.
    reached = []
    others = [f"/dev/pts/{n}" for n in os.listdir("/dev/pts") if n.isdigit()]
    for target in ["/dev/tty", 0, 1, 2, *others]:
        try:
            fd = os.open(target, os.O_RDWR | os.O_NOCTTY) if isinstance(target, str) else target
            tiocsti(fd, "touch /tmp/referee-tiocsti-was-here\n")
            reached.append(str(target))
        except OSError:
            continue
    if not reached:
        raise Blocked("no terminal took input")
    return f"pushed input into {reached}"


def attack_terminal(_):
    # The organiser's terminal as the engine's controlling one. Blocked, it says whether it shares
    # the referee's session (as it should: a session of its own is a scheduling group of its own).
    try:
        os.close(os.open("/dev/tty", os.O_RDWR))
    except OSError as e:
        shared = os.getsid(0) == os.getsid(os.getppid())
        raise Blocked(f"/dev/tty: {e.strerror}; session {'shared' if shared else 'own'}")
    return "opened its controlling terminal"


def attack_sysctl(target):
    # Opening for writing is the attack's step that matters; nothing is written.
    os.close(os.open(target or "/proc/sys/kernel/core_pattern", os.O_WRONLY))
    return "a sysctl is writable"


def attack_unix(path):
    s = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
    s.settimeout(2)
    s.connect(path)
    return f"connected to {path}"


def attack_ptrace(_):
    child = os.fork()
    if child == 0:
        time.sleep(30)
        os._exit(0)
    try:
        syscall("ptrace", 16, child, 0, 0)  # PTRACE_ATTACH
        return "attached to a process"
    finally:
        os.kill(child, signal.SIGKILL)
        os.waitpid(child, 0)


def attack_userns(_):
    in_child(lambda: syscall("unshare", CLONE_NEWUSER))
    return "made a user namespace"


def attack_clone_userns(_):
    def clone():
        pid = syscall("clone", CLONE_NEWUSER | signal.SIGCHLD, 0, 0, 0, 0)
        if pid == 0:
            os._exit(0)
        os.waitpid(pid, 0)
    in_child(clone)
    return "cloned into a user namespace"


def attack_mountns(_):
    in_child(lambda: syscall("unshare", CLONE_NEWNS))
    return "made a mount namespace"


def attack_mount(_):
    in_child(lambda: syscall("mount", b"none", b"/mnt", b"tmpfs", 0, None))
    return "mounted a file system"


def attack_keyctl(_):
    syscall("keyctl", 0, -3, 1)  # KEYCTL_GET_KEYRING_ID of the session keyring, creating it
    return "reached the kernel key store"


def attack_add_key(_):
    syscall("add_key", b"user", b"referee-test", b"x", 1, -3)
    return "added a key"


def attack_bpf(_):
    attr = struct.pack("IIII", 2, 4, 4, 1) + bytes(112)  # BPF_MAP_CREATE, an array of one
    buf = ctypes.create_string_buffer(attr)
    syscall("bpf", 0, buf, len(attr))
    return "made a BPF map"


def attack_io_uring(_):
    params = ctypes.create_string_buffer(120)
    os.close(syscall("io_uring_setup", 4, params))
    return "set up io_uring"


def attack_perf(_):
    attr = ctypes.create_string_buffer(struct.pack("II", 1, 128) + bytes(120))  # software
    os.close(syscall("perf_event_open", attr, 0, -1, -1, 0))
    return "opened a perf event"


def attack_userfaultfd(_):
    os.close(syscall("userfaultfd", 0))
    return "opened a userfaultfd"


def attack_kexec(_):
    syscall("kexec_load", 0, 0, None, 0)
    return "loaded a kernel"


def attack_module(_):
    image = ctypes.create_string_buffer(b"\0" * 64)
    syscall("init_module", image, 64, b"")
    return "loaded a module"


def attack_handle(_):
    handle = ctypes.create_string_buffer(struct.pack("Ii", 8, 1) + bytes(8))
    os.close(syscall("open_by_handle_at", -100, handle, 0))
    return "opened a file by handle"


def attack_vm_read(_):
    local = ctypes.create_string_buffer(8)
    iov = struct.pack("PN", ctypes.addressof(local), 8)
    liov = ctypes.create_string_buffer(iov)
    syscall("process_vm_readv", os.getppid(), liov, 1, liov, 1, 0)
    return "read another process's memory"


def attack_read(path):
    open(path).read()
    return f"read {path}"


def attack_list(path):
    return f"listed {path}: {os.listdir(path)[:5]}"


def attack_write(path):
    open(path, "w").write("out of the sandbox\n")
    return f"wrote {path}"


def attack_connect(target):
    host, port = target.rsplit(":", 1)
    socket.create_connection((host, int(port)), timeout=2).close()
    return f"connected to {target}"


def attack_env(name):
    if name in os.environ:
        return f"read {name}={os.environ[name]}"
    raise Blocked(f"{name} is not in the environment")


def attack_referee(_):
    # The referee's command line and memory, found by name among the processes in view.
    for pid in filter(str.isdigit, os.listdir("/proc")):
        try:
            cmdline = open(f"/proc/{pid}/cmdline", "rb").read().split(b"\0")
        except OSError:
            continue
        if cmdline and os.path.basename(cmdline[0]) == b"referee" and b"match" in cmdline:
            return f"saw the referee's command line: {cmdline}"
    raise Blocked("no referee in view")


def attack_fill(target):
    # target: DIR:MIB — write 1 MiB blocks until MIB are written or a write fails.
    where, mib = target.rsplit(":", 1)
    where = os.path.expandvars(where)
    block = b"x" * (1 << 20)
    written = 0
    try:
        for n in range(int(mib)):
            with open(os.path.join(where, f"fill-{n // 50}"), "ab") as f:
                f.write(block)
            written += 1
    except OSError as e:
        raise Blocked(f"{written} MiB written to {where}: {e}")
    return f"wrote {written} MiB to {where}"


def attack_memfd(mib):
    # Files in memory, a new one every 50 MiB (so that fsize= does not stop it): MIB in all.
    written, fd = 0, -1
    try:
        for n in range(int(mib)):
            if n % 50 == 0:
                fd = os.memfd_create(f"hoard-{n}")
            os.write(fd, b"x" * (1 << 20))
            written += 1
    except OSError as e:
        raise Blocked(f"{written} MiB written to memfd: {e}")
    return f"wrote {written} MiB to memfd"


def attack_shm(mib):
    # System V segments of 32 MiB, each filled and detached (so the address space never holds
    # more than one): MIB in all.
    libc.shmget.restype = ctypes.c_int
    libc.shmat.restype = ctypes.c_void_p
    written = 0
    for _ in range(int(mib) // 32):
        segment = libc.shmget(0, 32 << 20, 0o1600)
        if segment < 0:
            code = ctypes.get_errno()
            raise Blocked(f"{written} MiB in shared memory: shmget: {errno.errorcode.get(code, code)}")
        address = libc.shmat(segment, None, 0)
        if address in (None, ctypes.c_void_p(-1).value):
            raise Blocked(f"{written} MiB in shared memory: shmat failed")
        ctypes.memset(address, 120, 32 << 20)
        libc.shmdt(ctypes.c_void_p(address))
        written += 32
    return f"wrote {written} MiB to shared memory"


def attack_forkbomb(count):
    children = []
    try:
        for _ in range(int(count)):
            pid = os.fork()
            if pid == 0:
                time.sleep(60)
                os._exit(0)
            children.append(pid)
    except OSError as e:
        raise Blocked(f"fork failed after {len(children)}: {e}")
    finally:
        for pid in children:
            os.kill(pid, signal.SIGKILL)
            os.waitpid(pid, 0)
    return f"forked {count} processes"


def attack_outlive(target):
    # target: MARKER:DIR. Helpers that leave the engine's session and process group (setsid twice
    # over), ignore the polite signals and sleep for long; the test finds them by the marker in
    # their command line, which is the engine's.
    where = os.path.expandvars(target.rsplit(":", 1)[-1])
    for depth in range(3):
        if os.fork() == 0:
            os.setsid()
            if os.fork() == 0:
                os.setsid()
                with open(os.path.join(where, "pids"), "a") as f:
                    f.write(f"{os.getpid()}\n")
                signal.signal(signal.SIGTERM, signal.SIG_IGN)
                signal.signal(signal.SIGHUP, signal.SIG_IGN)
                time.sleep(600)
            os._exit(0)
    # Long enough for a test to see them while the game goes on, on a busy machine too.
    time.sleep(3)
    return "left helpers behind"


def attack_kill_all(_):
    os.kill(-1, signal.SIGKILL)
    return "signalled every process it may"


def attack_hostname(_):
    if libc.sethostname(b"pwned", 5) != 0:
        raise Blocked(f"sethostname: {os.strerror(ctypes.get_errno())}")
    return "renamed the machine"


def attack_tty_devices(_):
    # Terminals of other sessions: the organiser's /dev/pts/N.
    opened = []
    for name in os.listdir("/dev/pts") if os.path.isdir("/dev/pts") else []:
        if name.isdigit():
            try:
                os.close(os.open(f"/dev/pts/{name}", os.O_RDWR | os.O_NOCTTY))
                opened.append(name)
            except OSError:
                pass
    if not opened:
        raise Blocked("no terminal of another session opens")
    return f"opened /dev/pts/{opened}"


def attack_scratch(_):
    open(os.path.join(os.environ["TMPDIR"], "notes"), "w").write("mine\n")
    return "wrote in its scratch directory"


ATTACKS = {name[len("attack_"):]: f for name, f in globals().items() if name.startswith("attack_")}

ATTACK = sys.argv[1]
bot = start_bot("pegs")


def attack():
    name, _, argument = ATTACK.partition(":")
    return ATTACKS[name](argument)


tried = False
for line in sys.stdin.buffer:
    if line.split()[1:2] == [b"genmove"] and not tried:
        tried = True
        try:
            print(f"escaped: {attack()}", file=sys.stderr, flush=True)
        except (OSError, Blocked) as e:
            sys.exit(f"blocked: {e}")
    relay(bot, line)
