//! The system calls a sandboxed engine is denied: two seccomp programs, compiled once with
//! `seccompiler` and handed to bubblewrap, which loads them just before it runs the engine.

use std::collections::BTreeMap;
use std::sync::OnceLock;

use nix::libc;
use seccompiler::{
    BpfProgram, SeccompAction, SeccompCmpArgLen, SeccompCmpOp, SeccompCondition, SeccompFilter,
    SeccompRule,
};

/// System calls refused outright (`EPERM`): debugging and reading other processes, the kernel's
/// key store, BPF, mounts and namespaces, modules, kexec, and the rest of what a game engine never
/// needs and an attacker uses to leave or watch the sandbox.
const DENIED: &[libc::c_long] = &[
    libc::SYS_ptrace,
    libc::SYS_process_vm_readv,
    libc::SYS_process_vm_writev,
    libc::SYS_pidfd_getfd,
    libc::SYS_kcmp,
    libc::SYS_keyctl,
    libc::SYS_add_key,
    libc::SYS_request_key,
    libc::SYS_bpf,
    libc::SYS_perf_event_open,
    libc::SYS_userfaultfd,
    libc::SYS_io_uring_setup,
    libc::SYS_io_uring_enter,
    libc::SYS_io_uring_register,
    libc::SYS_mount,
    libc::SYS_umount2,
    libc::SYS_pivot_root,
    libc::SYS_chroot,
    libc::SYS_mount_setattr,
    libc::SYS_open_tree,
    libc::SYS_move_mount,
    libc::SYS_fsopen,
    libc::SYS_fsconfig,
    libc::SYS_fsmount,
    libc::SYS_fspick,
    libc::SYS_unshare,
    libc::SYS_setns,
    libc::SYS_name_to_handle_at,
    libc::SYS_open_by_handle_at,
    libc::SYS_init_module,
    libc::SYS_finit_module,
    libc::SYS_delete_module,
    libc::SYS_kexec_load,
    #[cfg(not(all(target_arch = "aarch64", target_env = "musl")))]
    libc::SYS_kexec_file_load,
    // The libc crate leaves it out for musl on aarch64: its number in the kernel's generic table.
    #[cfg(all(target_arch = "aarch64", target_env = "musl"))]
    294,
    libc::SYS_reboot,
    libc::SYS_swapon,
    libc::SYS_swapoff,
    libc::SYS_syslog,
    libc::SYS_acct,
    libc::SYS_quotactl,
    libc::SYS_settimeofday,
    libc::SYS_clock_settime,
    libc::SYS_clock_adjtime,
    libc::SYS_adjtimex,
    #[cfg(target_arch = "x86_64")]
    libc::SYS_iopl,
    #[cfg(target_arch = "x86_64")]
    libc::SYS_ioperm,
];

/// `ioctl` requests refused: pushing characters into a terminal's input (`TIOCSTI`), which a
/// shell would run as commands, and the Linux console's equivalent (`TIOCLINUX`).
// The requests are unsigned longs in glibc and ints in musl.
#[allow(clippy::unnecessary_cast)]
const DENIED_IOCTLS: &[u64] = &[libc::TIOCSTI as u64, libc::TIOCLINUX as u64];

/// `clone` flags that make a namespace: an engine may start processes and threads, never a new
/// namespace (bubblewrap's `--disable-userns` covers user namespaces too; this covers the rest).
const NAMESPACE_FLAGS: &[u64] = &[
    libc::CLONE_NEWNS as u64,
    libc::CLONE_NEWCGROUP as u64,
    libc::CLONE_NEWUTS as u64,
    libc::CLONE_NEWIPC as u64,
    libc::CLONE_NEWUSER as u64,
    libc::CLONE_NEWPID as u64,
    libc::CLONE_NEWNET as u64,
];

/// The two programs, as the bytes bubblewrap reads from a descriptor (`--add-seccomp-fd`): the
/// denials above (`EPERM`), and `NOT_THERE` answered `ENOSYS`: `clone3` among them, since its
/// flags sit in memory a filter cannot read; C libraries then fall back to `clone`, whose flags
/// the first program checks.
pub fn programs() -> Result<&'static [Vec<u8>; 2], FilterError> {
    static PROGRAMS: OnceLock<Result<[Vec<u8>; 2], FilterError>> = OnceLock::new();
    PROGRAMS
        .get_or_init(|| Ok([bytes(&denials()?), bytes(&no_clone3()?)]))
        .as_ref()
        .map_err(Clone::clone)
}

/// Why the filters cannot be built.
#[derive(Clone, Debug, thiserror::Error)]
pub enum FilterError {
    /// The machine is not one seccompiler writes filters for.
    #[error("no seccomp filter for {0}")]
    Arch(&'static str),
    /// seccompiler refused a rule (its error, which cannot be kept itself: it is not `Clone`).
    #[error("seccomp filter: {0}")]
    Build(String),
}

fn arch() -> Result<seccompiler::TargetArch, FilterError> {
    let arch = std::env::consts::ARCH;
    arch.try_into().map_err(|_| FilterError::Arch(arch))
}

/// seccompiler's error, kept as its text.
fn build(e: impl std::fmt::Display) -> FilterError {
    FilterError::Build(e.to_string())
}

fn compile(
    rules: BTreeMap<i64, Vec<SeccompRule>>,
    action: SeccompAction,
) -> Result<BpfProgram, FilterError> {
    let filter = SeccompFilter::new(rules, SeccompAction::Allow, action, arch()?).map_err(build)?;
    BpfProgram::try_from(filter).map_err(build)
}

/// One rule per value: the call matches when argument `arg` has all the bits of one of `values`.
fn any_bits(
    arg: u8,
    len: SeccompCmpArgLen,
    values: &[u64],
    masked: bool,
) -> Result<Vec<SeccompRule>, FilterError> {
    values
        .iter()
        .map(|&value| {
            let op = match masked {
                true => SeccompCmpOp::MaskedEq(value),
                false => SeccompCmpOp::Eq,
            };
            let condition = SeccompCondition::new(arg, len.clone(), op, value);
            SeccompRule::new(vec![condition.map_err(build)?]).map_err(build)
        })
        .collect()
}

fn denials() -> Result<BpfProgram, FilterError> {
    let mut rules: BTreeMap<i64, Vec<SeccompRule>> =
        DENIED.iter().map(|&call| (call, Vec::new())).collect();
    rules.insert(
        libc::SYS_ioctl,
        any_bits(1, SeccompCmpArgLen::Dword, DENIED_IOCTLS, false)?,
    );
    rules.insert(
        libc::SYS_clone,
        any_bits(0, SeccompCmpArgLen::Qword, NAMESPACE_FLAGS, true)?,
    );
    // Unix sockets by path reach servers outside the sandbox (a network namespace does not
    // separate them); pairs made with `socketpair` stay allowed.
    // Vsock reaches the host of a virtual machine, or its guests.
    rules.insert(
        libc::SYS_socket,
        any_bits(
            0,
            SeccompCmpArgLen::Dword,
            &[libc::AF_UNIX as u64, libc::AF_VSOCK as u64],
            false,
        )?,
    );
    compile(rules, SeccompAction::Errno(libc::EPERM as u32))
}

fn no_clone3() -> Result<BpfProgram, FilterError> {
    let rules = NOT_THERE.iter().map(|&call| (call, Vec::new())).collect();
    compile(rules, SeccompAction::Errno(libc::ENOSYS as u32))
}

/// System calls answered as a kernel without them would (`ENOSYS`), so that programs fall back:
/// `clone3` (see [`programs`]); `memfd_create` and System V shared memory, whose pages no
/// per-process limit counts once written (a file in memory, a segment left attached to none),
/// so that `mem=` bounds what an engine holds. Shared memory between an engine's processes
/// remains: `mmap` with `MAP_SHARED`, counted in each one's address space, and files in its
/// size-limited `/dev/shm`.
const NOT_THERE: &[libc::c_long] = &[libc::SYS_clone3, libc::SYS_memfd_create, libc::SYS_shmget];

/// A program as the kernel's `struct sock_filter` array, in this machine's byte order.
fn bytes(program: &BpfProgram) -> Vec<u8> {
    let mut out = Vec::with_capacity(program.len() * 8);
    for op in program {
        out.extend(op.code.to_ne_bytes());
        out.extend([op.jt, op.jf]);
        out.extend(op.k.to_ne_bytes());
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn both_programs_compile_to_whole_instructions() {
        let [denials, clone3] = programs().unwrap();
        assert!(denials.len() > 8 * DENIED.len(), "{}", denials.len());
        assert_eq!(denials.len() % 8, 0);
        assert!(!clone3.is_empty());
        assert_eq!(clone3.len() % 8, 0);
    }
}
