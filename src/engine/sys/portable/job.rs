//! An engine's whole process tree, ended with it: on Windows a job object, which every process
//! the engine starts joins, and which ends them all when it is killed or closed (closed at the
//! latest as the referee exits). On Unix the process group does this job (`process::kill_group`).

#![allow(unsafe_code)]

/// The job of one engine's process, closed (its processes ended) when dropped.
pub struct Job {
    #[cfg(windows)]
    pid: i32,
}

#[cfg(not(windows))]
impl Job {
    /// Nothing to make: the process leads a group of its own.
    pub fn enclose(_process: &std::process::Child) -> std::io::Result<Job> {
        Ok(Job {})
    }
}

#[cfg(not(windows))]
/// Nothing to kill here: see `process::kill_group`.
pub fn kill(_pid: i32) {}

#[cfg(windows)]
mod windows {
    use std::io;
    use std::os::windows::io::{AsRawHandle, FromRawHandle, OwnedHandle, RawHandle};
    use std::sync::{Mutex, PoisonError};

    use windows_sys::Win32::System::JobObjects::{
        AssignProcessToJobObject, CreateJobObjectW, JOB_OBJECT_LIMIT_KILL_ON_JOB_CLOSE,
        JOBOBJECT_EXTENDED_LIMIT_INFORMATION, JobObjectExtendedLimitInformation,
        SetInformationJobObject, TerminateJobObject,
    };

    use super::Job;

    /// The open jobs, by the id of the engine process each was made for: a stop kills them
    /// from another thread.
    static JOBS: Mutex<Vec<(i32, OwnedHandle)>> = Mutex::new(Vec::new());

    impl Job {
        /// Puts `process` in a new job that ends every process in it when the job is closed.
        /// What the process starts from now on joins the job; what it started before this (a
        /// few microseconds after its start) does not.
        pub fn enclose(process: &std::process::Child) -> io::Result<Job> {
            // SAFETY: null attributes and name make a new unnamed job with default security;
            // the call reads nothing else.
            let raw = unsafe { CreateJobObjectW(std::ptr::null(), std::ptr::null()) };
            if raw.is_null() {
                return Err(io::Error::last_os_error());
            }
            // SAFETY: `raw` is a handle just opened here and owned by nothing else.
            let job = unsafe { OwnedHandle::from_raw_handle(raw as RawHandle) };
            let mut limits = JOBOBJECT_EXTENDED_LIMIT_INFORMATION::default();
            limits.BasicLimitInformation.LimitFlags = JOB_OBJECT_LIMIT_KILL_ON_JOB_CLOSE;
            let size = u32::try_from(std::mem::size_of_val(&limits)).unwrap_or(u32::MAX);
            // SAFETY: the pointer and size are those of `limits`, which outlives the call, of
            // the type the information class names.
            let set = unsafe {
                SetInformationJobObject(
                    job.as_raw_handle(),
                    JobObjectExtendedLimitInformation,
                    (&raw const limits).cast(),
                    size,
                )
            };
            if set == 0 {
                return Err(io::Error::last_os_error());
            }
            // SAFETY: both handles are open: the job's above, the process's held by `process`.
            let assigned =
                unsafe { AssignProcessToJobObject(job.as_raw_handle(), process.as_raw_handle()) };
            if assigned == 0 {
                return Err(io::Error::last_os_error());
            }
            let pid = i32::try_from(process.id()).unwrap_or(i32::MAX);
            lock().push((pid, job));
            Ok(Job { pid })
        }
    }

    impl Drop for Job {
        fn drop(&mut self) {
            // Closing the last handle ends whatever is left in the job.
            lock().retain(|(pid, _)| *pid != self.pid);
        }
    }

    /// Ends every process in the job made for process `pid`, if there is one open.
    pub fn kill(pid: i32) {
        if let Some((_, job)) = lock().iter().find(|(p, _)| *p == pid) {
            // SAFETY: the handle is open while it is listed, and the lock is held.
            unsafe { TerminateJobObject(job.as_raw_handle(), 1) };
        }
    }

    fn lock() -> std::sync::MutexGuard<'static, Vec<(i32, OwnedHandle)>> {
        JOBS.lock().unwrap_or_else(PoisonError::into_inner)
    }
}

#[cfg(windows)]
pub use windows::kill;
