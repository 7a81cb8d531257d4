"""Exact values from the CLI's JSON: rationals as Fractions, certificates as sets."""

from fractions import Fraction

# Keys whose values are exact rationals written as strings ("7/3") or integers in the JSON of
# `optimum --json`, `topo info --json`, `verify --json` and `pipeline --json` (docs/cli.md).
RATIONAL_KEYS = frozenset({
    "ratio", "optimal_ratio", "U", "cut_bandwidth", "bound6", "bound7", "lower_bound",
    "min_cut", "max_single_node_cut", "rs_ag_ratio", "link_bandwidth", "average_distance",
    "coefficient_of_M_over_B", "B", "coefficient_of_M", "tb", "cut_ratio", "in", "out",
    "theorem15_bound", "fixed_k_lower_bound", "lp_ratio",
    # bfb --json and the exporters' --json (docs/cli.md)
    "u_sum", "tb_lower_bound", "lambda", "time", "lower", "upper", "bandwidth_tax", "slowdown",
    "average_path_length",
    # finder --json
    "allreduce_seconds_exact", "alpha_seconds", "bandwidth_bps",
    # tune --json (docs/tune.md; "over_best" in each row's "nccl")
    "height_alpha", "over_best",
    # pareto --json (docs/min_height.md)
    "ratio_lower_bound",
    "time", "gap", "alpha_bound", "alpha_beta_bound", "bandwidth_bound_ratio", "from_bytes", "to_bytes", "tb_lp", "tb_ilp", "tb_rounded", "thm20_gap", "achieved_ratio",
    # simulate --json (docs/simulate.md): exact times in seconds, byte counts, link loads
    "completion_time", "issued", "start", "end", "arrived", "done", "bytes", "busy",
    "busy_fraction", "size_bytes", "shard_bytes", "bytes_per_unit", "alpha", "gamma",
    "checked_time", "bandwidth_bound",
    # baseline --collective alltoall --json (docs/baselines.md)
    "claimed_time", "optimal_time", "ratio_to_optimum",
    # verify of a flows schedule with lengths (docs/formats.md "Flows schedule JSON")
    "time_lower_bound",
})
# Keys whose values are integers that the JSON writes as strings when they are large.
INTEGER_KEYS = frozenset({"k", "moore_bound", "lcm_chunks", "lcm_chunks_per_shard"})
# Keys whose values are certificates: sets of node names.
NODE_SET_KEYS = frozenset({"bottleneck_cut", "min_cut_set", "cut"})


def fraction(value):
    """An exact Fraction from a JSON rational: an integer or a "p/q" / "p" string."""
    if isinstance(value, bool):
        raise TypeError("a boolean is not a rational")
    if isinstance(value, (int, str)):
        return Fraction(value)
    raise TypeError(f"not an exact rational: {value!r}")


def exact(value, key=None):
    """The JSON value with rationals as Fractions and certificates as sets, recursively."""
    if isinstance(value, dict):
        return {k: exact(v, k) for k, v in value.items()}
    if value is None:
        return None
    if key in RATIONAL_KEYS and isinstance(value, (int, str)) and not isinstance(value, bool):
        return fraction(value)
    if key in INTEGER_KEYS and isinstance(value, str):
        return int(value)
    if key in NODE_SET_KEYS and isinstance(value, list):
        return set(value)
    if isinstance(value, list):
        return [exact(v) for v in value]
    return value
