#!/usr/bin/env bash
# A one-node Slurm cluster on this machine, for the tests and for trying `collsynth experiment
# submit --slurm` without a cluster (docs/experiments.md, "From one box to a cluster").
#
#   scripts/slurm_local.sh start [DIR]   bring it up; DIR (default: a new mktemp -d folder) holds
#                                        the munge key and socket, slurm.conf, the state and
#                                        spool folders, the logs and the daemons' pid files.
#                                        Prints DIR and writes DIR/env.sh (export SLURM_CONF=...).
#   scripts/slurm_local.sh stop DIR      cancels the jobs left on this cluster, stops exactly the
#                                        daemons `start DIR` started (the pids recorded in
#                                        DIR/*.pid, each only while its command line still names
#                                        DIR), also after a failed start, and removes DIR (kept
#                                        when COLLSYNTH_SLURM_KEEP=1).
#
# Needs the Debian packages slurmctld, slurmd, slurm-client and munge (scripts/setup.sh
# installs them) and root: slurmd starts jobs as their user. No systemd and no system-wide
# state: munged runs with its socket, key, pid, log and seed files in DIR; slurm.conf is
# generated from `slurmd -C` (host name, CPUs, memory less 5 %), the controller and node
# listen on two free local ports, and the clients find it through SLURM_CONF. `start` waits
# (at most COLLSYNTH_SLURM_START_SECONDS, default 60) until `sinfo` shows the node idle; on
# failure it prints the daemons' logs, stops what it started and exits 1.
set -uo pipefail

usage() {
  echo "usage: $0 start [DIR] | stop DIR" >&2
  exit 2
}

# Stops the daemons whose pids are recorded in $1/*.pid (each pid only if it is still a
# process we started: its command line names a file in $1, so a recycled pid is left alone).
stop_cluster() {
  local dir="$1" f pid left
  # First the jobs still queued or running on this private cluster (its own SLURM_CONF).
  if [ -f "$dir/slurm.conf" ] && [ -f "$dir/slurmctld.pid" ] && command -v scancel >/dev/null; then
    if [ -n "$(SLURM_CONF="$dir/slurm.conf" squeue -h -o %i 2>/dev/null)" ]; then
      SLURM_CONF="$dir/slurm.conf" scancel --full --quiet --user="$(id -un)" 2>/dev/null
      for _ in $(seq 50); do
        [ -z "$(SLURM_CONF="$dir/slurm.conf" squeue -h -o %i 2>/dev/null)" ] && break
        sleep 0.1
      done
    fi
  fi
  # TERM to every daemon of ours at once, then wait for each (KILL after 5 s).
  local ours=()
  for f in "$dir"/slurmd.pid "$dir"/slurmctld.pid "$dir"/munged.pid; do
    [ -f "$f" ] || continue
    pid="$(cat "$f")"
    case "$pid" in '' | *[!0-9]*) ;; *)
      if tr '\0' ' ' 2>/dev/null <"/proc/$pid/cmdline" | grep -qF -- "$dir/"; then
        kill -TERM "$pid" 2>/dev/null
        ours+=("$pid")
      fi ;;
    esac
  done
  for _ in $(seq 50); do
    left=0
    for pid in "${ours[@]}"; do [ -e "/proc/$pid" ] && left=1; done
    [ $left -eq 0 ] && break
    sleep 0.1
  done
  for pid in "${ours[@]}"; do [ -e "/proc/$pid" ] && kill -KILL "$pid" 2>/dev/null; done
  sleep 0.2
  left=0
  for pid in "${ours[@]}"; do
    [ -e "/proc/$pid" ] && { echo "slurm_local: pid $pid survived KILL" >&2; left=1; }
  done
  [ $left -eq 0 ] && rm -f "$dir"/slurmd.pid "$dir"/slurmctld.pid "$dir"/munged.pid
  return $left
}

# A TCP port nobody listens on now (the kernel's choice for port 0).
free_port() {
  python3 -c 'import socket; s = socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1])'
}

start_cluster() {
  local dir="$1"
  for prog in munged slurmctld slurmd sinfo sbatch; do
    if ! command -v "$prog" >/dev/null; then
      echo "slurm_local: $prog not found (scripts/setup.sh installs slurmctld, slurmd, slurm-client, munge)" >&2
      return 1
    fi
  done
  if [ "$(id -u)" -ne 0 ]; then
    echo "slurm_local: must run as root (slurmd starts jobs as their user)" >&2
    return 1
  fi
  mkdir -p "$dir"/state "$dir"/spool "$dir"/munge
  chmod 700 "$dir" "$dir"/munge
  # munge: a fresh key, the daemon with every file in DIR/munge.
  dd if=/dev/urandom of="$dir/munge/munge.key" bs=1024 count=1 status=none
  chmod 400 "$dir/munge/munge.key"
  local sock="$dir/munge/munge.socket"
  munged --foreground --force --socket="$sock" --key-file="$dir/munge/munge.key" \
    --pid-file="$dir/munge/munged.pidfile" --log-file="$dir/munge/munged.log" \
    --seed-file="$dir/munge/munged.seed" </dev/null >"$dir/munged.out" 2>&1 &
  echo $! >"$dir/munged.pid"
  for _ in $(seq 50); do
    [ -S "$sock" ] && break
    sleep 0.1
  done
  if [ ! -S "$sock" ]; then
    echo "slurm_local: munged did not create $sock" >&2
    return 1
  fi
  # slurm.conf: this host as controller and only node, from `slurmd -C`.
  local host node_line mem ctld_port slurmd_port
  host="$(hostname -s)"
  node_line="$(slurmd -C | head -1)"
  mem="$(sed -n 's/.*RealMemory=\([0-9]*\).*/\1/p' <<<"$node_line")"
  if [ -z "$mem" ]; then
    mem="$(awk '/^MemTotal:/ {print int($2 / 1024)}' /proc/meminfo)"
    node_line="NodeName=$host CPUs=$(nproc) RealMemory=$mem"
  fi
  node_line="$(sed "s/RealMemory=[0-9]*/RealMemory=$((mem * 95 / 100))/; s/^NodeName=[^ ]*/NodeName=$host/" \
    <<<"$node_line")"
  ctld_port="$(free_port)"
  slurmd_port="$(free_port)"
  while [ "$slurmd_port" = "$ctld_port" ]; do slurmd_port="$(free_port)"; done
  cat >"$dir/slurm.conf" <<EOF
# Generated by scripts/slurm_local.sh: a one-node cluster on $host.
ClusterName=collsynth-local
SlurmctldHost=$host(127.0.0.1)
SlurmctldPort=$ctld_port
SlurmdPort=$slurmd_port
SlurmUser=root
SlurmdUser=root
AuthType=auth/munge
CredType=cred/munge
AuthInfo=socket=$sock
SlurmctldPidFile=$dir/slurmctld.pidfile
SlurmdPidFile=$dir/slurmd.pidfile
StateSaveLocation=$dir/state
SlurmdSpoolDir=$dir/spool
SlurmctldLogFile=$dir/slurmctld.log
SlurmdLogFile=$dir/slurmd.log
ProctrackType=proctrack/linuxproc
TaskPlugin=task/none
JobAcctGatherType=jobacct_gather/none
AccountingStorageType=accounting_storage/none
SelectType=select/cons_tres
SelectTypeParameters=CR_Core
MpiDefault=none
SwitchType=switch/none
ReturnToService=2
MinJobAge=600
SchedulerType=sched/backfill
$node_line NodeAddr=127.0.0.1 State=UNKNOWN
PartitionName=local Nodes=$host Default=YES MaxTime=INFINITE State=UP
EOF
  cat >"$dir/env.sh" <<EOF
export SLURM_CONF='$dir/slurm.conf'
EOF
  export SLURM_CONF="$dir/slurm.conf"
  slurmctld -D -i -f "$dir/slurm.conf" </dev/null >"$dir/slurmctld.out" 2>&1 &
  echo $! >"$dir/slurmctld.pid"
  slurmd -D -N "$host" -f "$dir/slurm.conf" </dev/null >"$dir/slurmd.out" 2>&1 &
  echo $! >"$dir/slurmd.pid"
  local limit="${COLLSYNTH_SLURM_START_SECONDS:-60}" start=$SECONDS state=""
  while [ $((SECONDS - start)) -lt "$limit" ]; do
    state="$(sinfo -h -N -n "$host" -o %t 2>/dev/null | head -1)"
    [ "$state" = "idle" ] && break
    for prog in slurmctld slurmd munged; do
      if [ ! -e "/proc/$(cat "$dir/$prog.pid")" ]; then
        echo "slurm_local: $prog exited during start-up" >&2
        return 1
      fi
    done
    sleep 0.2
  done
  if [ "$state" != "idle" ]; then
    echo "slurm_local: node $host not idle after $limit s (sinfo state '${state}')" >&2
    return 1
  fi
  echo "slurm_local: node $host idle after $((SECONDS - start)) s; cluster in $dir"
  return 0
}

case "${1:-}" in
  start)
    dir="${2:-}"
    if [ -z "$dir" ]; then
      dir="$(mktemp -d /tmp/collsynth-slurm.XXXXXX)" || exit 1
    fi
    dir="$(mkdir -p "$dir" && cd "$dir" && pwd)" || exit 1
    if ! start_cluster "$dir"; then
      for f in "$dir"/*.log "$dir"/*.out "$dir"/munge/munged.log; do
        [ -s "$f" ] && { echo "--- $f" >&2; tail -n 30 "$f" >&2; }
      done
      stop_cluster "$dir"
      exit 1
    fi
    echo "$dir"
    ;;
  stop)
    [ -n "${2:-}" ] || usage
    [ -d "$2" ] || exit 0
    stop_cluster "$2" || exit 1
    [ "${COLLSYNTH_SLURM_KEEP:-0}" = 1 ] || rm -rf "$2"
    ;;
  *) usage ;;
esac
