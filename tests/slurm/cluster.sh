#!/usr/bin/env bash
# A single-node Slurm cluster in a directory, for the Slurm test: `cluster.sh start DIR` starts
# munged, slurmctld and slurmd as the current user (root: slurmd must be) with every path under
# DIR and waits until the node takes jobs; `cluster.sh stop DIR` stops the three by their pid
# files and nothing else. Clients use it with SLURM_CONF=DIR/slurm.conf. Needs Debian's slurm-wlm
# and munge packages.
set -euo pipefail
# The daemons are in /usr/sbin, which a non-login shell's PATH may leave out.
export PATH="$PATH:/usr/sbin:/sbin"
action=${1:?usage: cluster.sh start|stop DIR}
dir=$(realpath -m "${2:?usage: cluster.sh start|stop DIR}")
# Ports away from Slurm's defaults (6817, 6818), so a real cluster on the machine is not touched.
ctld_port=${REFEREE_SLURMCTLD_PORT:-16817}
slurmd_port=${REFEREE_SLURMD_PORT:-16818}

stop() {
    for daemon in slurmd slurmctld munged; do
        local pidfile="$dir/$daemon.pid"
        [ -s "$pidfile" ] || continue
        local pid
        pid=$(cat "$pidfile")
        kill "$pid" 2> /dev/null || continue
        for _ in $(seq 50); do
            kill -0 "$pid" 2> /dev/null || break
            sleep 0.1
        done
        kill -9 "$pid" 2> /dev/null || true
        rm -f "$pidfile"
    done
}

logs() {
    for log in "$dir"/*.log; do
        [ -f "$log" ] || continue
        echo "==== $log (last 40 lines)" >&2
        tail -n 40 "$log" >&2
    done
}

start() {
    mkdir -p "$dir/state" "$dir/spool" "$dir/munge"
    chmod 700 "$dir/munge"
    local host
    host=$(hostname -s)
    local user
    user=$(id -un)
    dd if=/dev/urandom of="$dir/munge/munge.key" bs=1024 count=1 status=none
    chmod 400 "$dir/munge/munge.key"
    munged --force --key-file="$dir/munge/munge.key" --socket="$dir/munge/socket" \
        --pid-file="$dir/munged.pid" --log-file="$dir/munged.log" \
        --seed-file="$dir/munge/seed"
    cat > "$dir/slurm.conf" <<CONF
ClusterName=referee-test
SlurmctldHost=$host(127.0.0.1)
SlurmctldPort=$ctld_port
SlurmdPort=$slurmd_port
SlurmUser=$user
SlurmdUser=root
AuthType=auth/munge
AuthInfo=socket=$dir/munge/socket
CredType=cred/munge
StateSaveLocation=$dir/state
SlurmdSpoolDir=$dir/spool
SlurmctldPidFile=$dir/slurmctld.pid
SlurmdPidFile=$dir/slurmd.pid
SlurmctldLogFile=$dir/slurmctld.log
SlurmdLogFile=$dir/slurmd.log
ProctrackType=proctrack/linuxproc
TaskPlugin=task/none
SwitchType=switch/none
MpiDefault=none
SchedulerType=sched/backfill
SelectType=select/cons_tres
SelectTypeParameters=CR_CPU
ReturnToService=2
JobCompType=jobcomp/none
AccountingStorageType=accounting_storage/none
JobAcctGatherType=jobacct_gather/none
MinJobAge=3600
KillWait=5
NodeName=$host NodeAddr=127.0.0.1 CPUs=$(nproc) State=UNKNOWN
PartitionName=test Nodes=ALL Default=YES MaxTime=INFINITE State=UP
CONF
    export SLURM_CONF="$dir/slurm.conf"
    slurmctld -i
    slurmd
    for _ in $(seq 300); do
        if [ "$(sinfo -h -o %t 2> /dev/null)" = idle ]; then
            return 0
        fi
        sleep 0.2
    done
    echo "cluster.sh: the node did not become idle within 60 s" >&2
    sinfo >&2 || true
    logs
    stop
    return 1
}

case "$action" in
    start) start ;;
    stop) stop ;;
    logs) logs ;;
    *) echo "usage: cluster.sh start|stop|logs DIR" >&2; exit 2 ;;
esac
