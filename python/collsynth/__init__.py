"""collsynth: exact, checked collective-communication schedules from Python.

A thin layer over the C++ library that the ``collsynth`` command is built from (docs/python.md).
Every number that decides optimality is a :class:`fractions.Fraction`; every schedule the
package returns or writes has been accepted by the independent checker (``proofs_check/``), and
``Schedule.save`` writes through the CLI's checked-output path (the bytes on disk are read back
and checked before the file appears).

Examples
--------
>>> import collsynth
>>> g = collsynth.topo.gen("hypercube(3)")
>>> collsynth.optimum(g)["ratio"]
Fraction(7, 3)
"""

import json as _json
from types import SimpleNamespace as _Namespace

from . import _collsynth as _core
from ._errors import CheckError, InputError, InternalError
from ._exact import exact as _exact
from ._exact import fraction as _fraction

__all__ = [
    "CheckError", "InputError", "InternalError", "Topology", "Schedule", "Verdict", "topo", "optimum",
    "pipeline", "load_schedule", "verify", "simulate", "draw", "experiments", "bfb", "baseline",
    "replay", "finder", "tune", "pareto",
]


class Topology:
    """A network topology: compute nodes, switches and links with exact bandwidths.

    Build one with :meth:`from_file`, :meth:`from_json`, :meth:`from_networkx` or
    :func:`collsynth.topo.gen`; the C++ readers check it (exit-2 errors of the CLI become
    :class:`InputError`).

    Attributes
    ----------
    origin : str
        Where it came from: a path, ``"<expr>"``, ``"<json>"`` or ``"<networkx>"``; errors about
        the topology name it.
    """

    def __init__(self, core, origin):
        self._g = core
        self.origin = origin
        self._file = ""  # the topology file, for the link latencies `simulate` reads

    @classmethod
    def from_file(cls, path):
        """Read a topology file (JSON or edge list, docs/formats.md).

        Parameters
        ----------
        path : str or os.PathLike

        Returns
        -------
        Topology
        """
        path = str(path)
        topology = cls(_core.Topology.from_file(path), path)
        topology._file = path
        return topology

    @classmethod
    def from_json(cls, document, origin="<json>"):
        """A topology from its JSON document (docs/formats.md), as text or as a dict.

        Bandwidths may be ints, strings ("3/2") or Fractions.
        """
        if not isinstance(document, str):
            document = _json.dumps(document, default=_json_default)
        return cls(_core.Topology.from_json_text(document, origin), origin)

    @classmethod
    def from_networkx(cls, graph, name=None):
        """A topology from a :class:`networkx.DiGraph`.

        Parameters
        ----------
        graph : networkx.DiGraph
            Node attribute ``kind`` (``"compute"``, the default, or ``"switch"``); edge attribute
            ``bandwidth`` (int, Fraction or "p/q", required), optional ``multiplicity`` and
            ``latency`` (seconds, exact). Node names are ``str(node)``.
        name : str, optional
            The topology's name (default: ``graph.graph.get("name", "")``).

        Returns
        -------
        Topology
        """
        nodes = []
        for v, data in graph.nodes(data=True):
            node = {"name": str(v)}
            if data.get("kind", "compute") != "compute":
                node["kind"] = data["kind"]
            nodes.append(node)
        links = []
        for u, v, data in graph.edges(data=True):
            if "bandwidth" not in data:
                raise InputError(f"<networkx>: edge ({u}, {v}): has no 'bandwidth' attribute",
                                 "<networkx>", f"edge ({u}, {v})", "has no 'bandwidth' attribute")
            link = {"from": str(u), "to": str(v), "bandwidth": data["bandwidth"]}
            for key in ("multiplicity", "latency"):
                if key in data:
                    link[key] = data[key]
            links.append(link)
        doc = {"name": name if name is not None else graph.graph.get("name", ""),
               "nodes": nodes, "links": links}
        return cls.from_json(doc, "<networkx>")

    def to_networkx(self):
        """The topology as a :class:`networkx.DiGraph` (one edge per link, exact Fractions).

        Node attribute ``kind``; edge attributes ``bandwidth`` (Fraction) and ``multiplicity``.
        ``Topology.from_networkx(t.to_networkx())`` has the same nodes and links.
        """
        import networkx

        graph = networkx.DiGraph(name=self.name)
        for v, compute in zip(self._g.node_names, self._g.compute_mask):
            graph.add_node(v, kind="compute" if compute else "switch")
        for u, v, bandwidth, multiplicity in self._g.links:
            graph.add_edge(u, v, bandwidth=_fraction(bandwidth), multiplicity=multiplicity)
        return graph

    def to_json(self):
        """The topology's JSON document (the text ``collsynth topo convert`` writes)."""
        return self._g.to_json_text()

    @property
    def name(self):
        """The topology's name."""
        return self._g.name

    @property
    def nodes(self):
        """All node names, compute nodes and switches, in the file's order."""
        return list(self._g.node_names)

    @property
    def compute_nodes(self):
        """The names of the compute nodes."""
        return [v for v, c in zip(self._g.node_names, self._g.compute_mask) if c]

    @property
    def switch_nodes(self):
        """The names of the switches."""
        return [v for v, c in zip(self._g.node_names, self._g.compute_mask) if not c]

    @property
    def links(self):
        """Links as ``(from, to, bandwidth: Fraction, multiplicity)`` tuples."""
        return [(u, v, _fraction(b), m) for u, v, b, m in self._g.links]

    @property
    def automorphisms(self):
        """The declared automorphisms (checked), each a dict node name -> node name."""
        names = self._g.node_names
        return [{names[v]: names[p[v]] for v in range(len(names))} for p in self._g.automorphisms]

    def info(self, threads=0):
        """The metrics of ``collsynth topo info --json`` as a dict with Fractions.

        Parameters
        ----------
        threads : int
            BFS threads for the distances (0: all cores).
        """
        return _exact(_json.loads(self._g.info_json(threads)))

    def __repr__(self):
        return (f"<collsynth.Topology {self.name!r}: {len(self.compute_nodes)} compute, "
                f"{len(self.switch_nodes)} switches, {len(self._g.links)} links>")


def _json_default(value):
    from fractions import Fraction

    if isinstance(value, Fraction):
        return str(value)
    raise TypeError(f"{value!r} is not JSON serialisable")


def _gen(expression):
    """A topology from an expression such as ``"fattree(4)"`` (docs/topologies.md).

    The same topology as ``collsynth topo gen EXPRESSION``.
    """
    return Topology(_core.Topology.from_expression(expression), "<expr>")


def _import_machine(format, path, link_bandwidth=None, gpu_model=None, nvlink_only=False,
                    nodes=1, fabric="rail"):
    """A topology from a real machine's dump (``collsynth topo import``, docs/machine_import.md).

    Parameters
    ----------
    format : {"nvidia-smi", "nccl-xml"}
        ``nvidia-smi topo -m`` output, or the XML NCCL writes with ``NCCL_TOPO_DUMP_FILE``.
    path : str or os.PathLike
    link_bandwidth : dict, optional
        Connection type (NVLINK, PCIE, SYS, NET, FABRIC) -> bandwidth in GB/s (int, Fraction or
        "p/q"), replacing the table's value.
    gpu_model : str, optional
        nvidia-smi: the GPU model whose row of the table applies.
    nvlink_only : bool
        Keep only the GPUs and their NVLinks.
    nodes : int
        Copies of the machine joined through their NICs.
    fabric : {"rail", "fattree"}
        How the copies are joined.

    Returns
    -------
    Topology
    """
    if format not in ("nvidia-smi", "nccl-xml"):
        raise InputError(f"<args>: format: '{format}' is not nvidia-smi or nccl-xml",
                         "<args>", "format", f"'{format}' is not nvidia-smi or nccl-xml")
    if fabric not in ("rail", "fattree"):
        raise InputError(f"<args>: fabric: '{fabric}' is not rail or fattree",
                         "<args>", "fabric", f"'{fabric}' is not rail or fattree")
    overrides = [f"{k}={v}" for k, v in (link_bandwidth or {}).items()]
    path = str(path)
    core = _core.import_machine(format, path, overrides, gpu_model or "", bool(nvlink_only),
                                int(nodes), fabric == "fattree")
    return Topology(core, path)


topo = _Namespace(gen=_gen, import_machine=_import_machine)
"""Topology constructors: ``collsynth.topo.gen(expression)``,
``collsynth.topo.import_machine(format, path, ...)``."""


def optimum(topology, method=None, root=None, collective="allgather", demand=None, relay=True):
    """The exact optimum of ``collsynth optimum``: the allgather's (default) or the all-to-all's.

    Parameters
    ----------
    topology : Topology
    method : {"dinkelbach", "binary-search"}, optional
        Allgather: how ratio* is searched (seed 004 §2.1; default ``"dinkelbach"``).
    root : str, optional
        Allgather: the broadcast root for bound (5) (default: the first compute node).
    collective : {"allgather", "alltoall"}
    demand : str or os.PathLike, optional
        All-to-all: a demand-matrix file (docs/formats.md; default uniform, 1 per pair).
    relay : bool
        All-to-all: ``False`` is ``--no-relay`` (compute nodes forward nothing).

    Returns
    -------
    dict
        The keys of ``optimum --json`` (docs/cli.md). Allgather: ``ratio`` (Fraction:
        T_B* = (M/N)·ratio), ``bottleneck_cut`` (set of node names, the certificate), ``U``,
        ``k``, ``allreduce`` and ``broadcast`` bounds. All-to-all: ``lambda`` and ``time``
        (Fractions), the checked ``certificate``'s bounds, ``bandwidth_tax``, ``ecmp``.

    Raises
    ------
    InputError
        Bad input or options (the CLI's exit 2).
    CheckError
        All-to-all: the certificate was not accepted (the CLI's exit 1).
    """
    if collective == "alltoall":
        for option, value in (("--root", root), ("--method", method)):
            if value is not None and (option == "--root" or value != "dinkelbach"):
                raise InputError(f"<args>: {option}: applies to --collective allgather only",
                                 "<args>", option, "applies to --collective allgather only")
        return _exact(_json.loads(_core.alltoall_optimum_json(
            topology._g, topology.origin, "" if demand is None else str(demand), bool(relay))))
    if collective != "allgather":
        raise InputError(f"<args>: --collective: unknown collective '{collective}' "
                         "(allgather, alltoall)", "<args>", "--collective",
                         f"unknown collective '{collective}' (allgather, alltoall)")
    if demand is not None or not relay:
        option = "--demand" if demand is not None else "--no-relay"
        raise InputError(f"<args>: {option}: applies to --collective alltoall only", "<args>",
                         option, "applies to --collective alltoall only")
    return _exact(_json.loads(_core.optimum_json(topology._g, topology.origin,
                                                 method or "dinkelbach", root or "")))


def finder(nodes=None, degree=None, alpha="10us", bandwidth="100Gbps", size="1MB", up_to=None):
    """The topology finder of seed 000 §5.4 (``collsynth finder --json``).

    Parameters
    ----------
    nodes : int
        N, the number of nodes (not with ``up_to``).
    degree : int
        d, links out of each node (1..64).
    alpha : str
        Per-step latency α with a unit (s, ms, us, ns; a bare number is us), exact.
    bandwidth : str
        Node egress bandwidth B (bps, Kbps, Mbps, Gbps, Tbps; bare: Gbps).
    size : str
        Allreduce size M (B, KB, MB, GB, KiB, MiB, GiB; bare: B).
    up_to : int, optional
        NMAX: every N = 2..NMAX on one engine, the best candidate per N (``finder --up-to NMAX
        --json``, seed 000 Figure 13), instead of one N's frontier.

    Returns
    -------
    dict
        The object of ``finder --json``: the Pareto ``frontier`` of allgather (T_L, T_B)
        candidates (``tb`` and ``allreduce_seconds_exact`` as Fractions; ``tb_decimal`` and
        ``allreduce_us`` are decimals for people), ``best`` for the workload,
        ``tb_lower_bound`` and the ``workload`` (Fractions). With ``up_to``: ``degree`` and
        ``results``, one ``{nodes, frontier_size, best}`` per N that has a topology in the
        database (the CLI's object without its ``seconds``).

    Raises
    ------
    InputError
        A bad option (``up_to`` outside 2..100000, ``nodes`` and ``up_to`` both or neither) or
        no topology of that size and degree in the database.
    """
    if degree is None:
        raise InputError("<args>: --degree: is required", "<args>", "--degree", "is required")
    if (nodes is None) == (up_to is None):
        raise InputError("<args>: --nodes: give nodes or up_to, not both", "<args>", "--nodes",
                         "give nodes or up_to, not both")
    if up_to is not None:
        return _exact(_json.loads(_core.finder_up_to_json(int(up_to), int(degree), str(alpha),
                                                          str(bandwidth), str(size))))
    return _exact(_json.loads(_core.finder_json(int(nodes), int(degree), str(alpha),
                                                str(bandwidth), str(size))))


class Verdict:
    """The checker's verdict on a schedule (``collsynth verify --json``).

    A rejected schedule is a Verdict with ``ok == False``, not an exception.

    Attributes
    ----------
    ok : bool
    verdict : str
        e.g. ``"optimal (certified)"``, ``"valid"``, ``"invalid"``.
    errors : list of str
        The first violations found.
    report : dict
        The whole report, rationals as Fractions.
    """

    def __init__(self, report):
        self.report = _exact(_json.loads(report))
        self.ok = bool(self.report["ok"])
        self.verdict = self.report["verdict"]
        self.errors = list(self.report.get("errors", []))

    def __bool__(self):
        return self.ok

    def __repr__(self):
        return f"<collsynth.Verdict {self.verdict!r}>"


_NO_RANKS = object()  # export_chakra takes no rank mapping


class Schedule:
    """A schedule the checker has seen, with its verdict.

    Attributes
    ----------
    format : str
        ``"pipeline"``, ``"pipeline-symmetric"``, ``"steps"`` or ``"steps-compact"``.
    summary : dict
        What the producer reports (ratio, optimal_ratio, U, k, ...), Fractions for rationals.
    verdict : Verdict
        The checker's verdict on exactly the text :meth:`to_json` returns.
    """

    def __init__(self, topology, checked):
        self.topology = topology
        self._checked = checked
        self.summary = _exact(_json.loads(checked.summary))
        self.format = self.summary["format"]
        self.verdict = Verdict(checked.report)
        self._document = None

    @property
    def ratio(self):
        """The checker's runtime ratio T_B / (M/N) (Fraction), for pipeline schedules."""
        return self.verdict.report.get("ratio")

    def to_json(self):
        """The schedule's text, in its format (docs/formats.md)."""
        return self._checked.text

    def document(self):
        """The schedule's JSON document as a dict (node names, rationals as strings)."""
        if self._document is None:
            self._document = _json.loads(self._checked.text)
        return self._document

    def trees(self):
        """Iterate over a pipeline schedule's trees (all phases in order).

        Yields dicts with ``root``, ``multiplicity`` and ``edges``; each edge has ``from``,
        ``to`` and ``routes`` (lists of node names with a multiplicity), as in docs/formats.md.
        """
        doc = self.document()
        for phase in doc.get("phases", [doc]):
            for tree in phase.get("trees", []):
                yield tree

    def sends(self):
        """Iterate over a step schedule's sends (docs/formats.md "steps")."""
        yield from self.document().get("sends", [])

    def __iter__(self):
        return self.sends() if self.format.startswith("steps") else self.trees()

    def save(self, path):
        """Write the schedule to ``path``, checked from the bytes on disk.

        The text goes to ``path.partial``, is read back with ``collsynth verify``'s reader,
        checked, compared with this schedule's verdict, and only then renamed to ``path``.

        Raises
        ------
        CheckError
            If the written file does not pass the check (nothing is left at ``path``).
        """
        error = _core.save_checked(self.topology._g, self._checked.text, str(path),
                                   self._checked.check_bfb)
        if error:
            raise CheckError(f"{path}: {error} (nothing written)")

    def _export(self, what, lower, args, options, ranks=None):
        if not self.verdict.ok:
            raise InputError("<python>: schedule: does not pass the checker, nothing exported",
                             "<python>", "schedule", "does not pass the checker")
        for key, value in options.items():
            if key.startswith("_") or not hasattr(args, key):
                raise TypeError(f"{what}() got an unexpected keyword argument {key!r}")
            setattr(args, key, value)
        extra = () if ranks is _NO_RANKS else ("" if ranks is None else str(ranks),)
        return _exact(_json.loads(lower(self.topology._g, self._checked.text, args, *extra)))

    def export_msccl(self, path, ranks=None, **options):
        """Lower to an MSCCL executor XML file (``collsynth export msccl --json``, docs/export.md).

        The program is self-checked, written to ``path.partial``, replayed from disk by the
        independent checker and only then renamed, next to its routes file, as the CLI does.

        Parameters
        ----------
        path : str or os.PathLike
            The XML file, or a directory (the file is named by collective and size range).
        ranks : str or os.PathLike, optional
            A JSON file: compute node names in rank order, or {name: rank} (``--ranks``).
        **options
            The command's options by their Python names: ``profile`` ("executor", "rccl",
            "legacy"), ``proto`` ("Simple", "LL", "LL128"), ``inplace``, ``min_bytes``,
            ``max_bytes``, ``max_tbs``, ``max_channels``, ``max_chunks``, ``instances``,
            ``root_specific``, ``fuse``, ``name``.

        Returns
        -------
        dict
            The summary of ``export msccl --json``: ``file``, ``routes_file``,
            ``nchunksperloop``, ``optimal_ratio`` and ``achieved_ratio`` (Fractions), ...

        Raises
        ------
        InputError
            Bad options (the CLI's exit 2).
        CheckError
            The replay rejected the file or a limit cannot be met (nothing is written).
        """
        options["output"] = str(path)
        return self._export("export_msccl", _core.export_msccl, _core.ExportMscclArgs(), options,
                            ranks)

    def export_mscclpp(self, path, ranks=None, **options):
        """Lower to an MSCCL++ execution plan (``collsynth export mscclpp --json``).

        Written to ``path.partial``, replayed from disk by the independent plan checker, then
        renamed, next to its routes file, as the CLI does (docs/export.md).

        Parameters
        ----------
        path : str or os.PathLike
            The plan file (JSON), or a directory.
        ranks : str or os.PathLike, optional
            As ``--ranks``.
        **options
            ``proto``, ``inplace``, ``min_bytes``, ``max_bytes``, ``max_tbs``, ``max_chunks``,
            ``instances``, ``pieces``, ``name``, as the command's options.

        Returns
        -------
        dict
            The summary of ``export mscclpp --json``, ratios as Fractions.

        Raises
        ------
        InputError
            Bad options.
        CheckError
            The replay rejected the plan or a limit cannot be met (nothing is written).
        """
        options["output"] = str(path)
        return self._export("export_mscclpp", _core.export_mscclpp, _core.ExportMscclppArgs(),
                            options, ranks)

    def export_chakra(self, prefix, size, **options):
        """Chakra ET traces for ASTRA-sim (``collsynth export chakra --json``, docs/export.md).

        The lowered MSCCL program is replayed, the traces checked, written as
        ``PREFIX.<rank>.et.partial``, read back by the independent reader and checked, then
        renamed together.

        Parameters
        ----------
        prefix : str or os.PathLike
            The files are ``PREFIX.<rank>.et``.
        size : int
            Bytes of the whole N-rank buffer (``--size``).
        **options
            ``slices``, ``max_chunks``, ``max_tbs``, ``max_channels``, ``fuse``.

        Returns
        -------
        dict
            The summary of ``export chakra --json``: ``files``, ``system_json_key``,
            ``size_bytes`` and the ratios as Fractions, ``sent_bytes_per_rank``, ...

        Raises
        ------
        InputError
            Bad options (broadcast, a size that is not a multiple of nchunksperloop × slices).
        CheckError
            A check failed or a limit cannot be met (nothing is written).
        """
        options["prefix"] = str(prefix)
        options["size"] = int(size)
        return self._export("export_chakra", _core.export_chakra, _core.ExportChakraArgs(),
                            options, _NO_RANKS)

    def __repr__(self):
        return f"<collsynth.Schedule {self.format} {self.verdict.verdict!r}>"


def pipeline(topology, collective="allgather", root=None, fixed_k=None, symmetric=None):
    """A bandwidth-optimal pipeline schedule (seed 004), checked (``collsynth pipeline``).

    Parameters
    ----------
    topology : Topology
    collective : {"allgather", "reduce-scatter", "allreduce", "broadcast"}
    root : str, optional
        The broadcast root (default: the first compute node).
    fixed_k : int, optional
        Exactly k trees per root (seed 004 §2.4).
    symmetric : bool, optional
        ``None`` (default): the symmetric path when the topology declares automorphisms, as the
        CLI; ``True``: require it; ``False``: the plain path.

    Returns
    -------
    Schedule
    """
    flag = -1 if symmetric is None else int(bool(symmetric))
    checked = _core.pipeline(topology._g, topology.origin, collective, root or "",
                             "" if fixed_k is None else str(fixed_k), flag)
    return Schedule(topology, checked)


def load_schedule(topology, path):
    """Read a schedule file and check it against ``topology`` (``collsynth verify``).

    Returns
    -------
    Schedule
        With ``verdict.ok == False`` if the checker rejects it; bad input raises InputError.
    """
    return Schedule(topology, _core.load_schedule(topology._g, str(path)))


def verify(topology, schedule):
    """The checker's verdict on a schedule file (path) or a :class:`Schedule`'s text.

    Returns
    -------
    Verdict
    """
    if isinstance(schedule, Schedule):
        return Verdict(_core.verify_text(topology._g, schedule.to_json(), "<python>"))
    return load_schedule(topology, schedule).verdict


def bfb(topology, collective="allgather", chunks=None, alpha_file=None, thm4=False,
        compact=False, certificates=True, clp_hint=False, threads=0):
    """A BFB schedule (seed 000 §6, App. D), checked (``collsynth bfb``).

    The same solve and in-memory check as the command (cli/bfb_request.h); :meth:`Schedule.save`
    writes it through the checked-output path, as ``bfb -o`` does.

    Parameters
    ----------
    topology : Topology
    collective : {"allgather", "reduce-scatter", "allreduce"}
    chunks : int, optional
        Exactly P chunks per shard: ILP (12) against the rounded LP (App. D.2), allgather only.
    alpha_file : str or os.PathLike, optional
        Per-link alphas for LP (13) (App. D.3).
    thm4 : bool
        Reduce-scatter by Theorem 4 with a known reverse-symmetry isomorphism.
    compact : bool
        Hold (and save) the ``"steps-compact"`` form instead of ``"steps"``.
    certificates : bool
        Keep the per-(u, t) certificates in the schedule's ``extra`` (``--no-certificates``).
    clp_hint : bool
        Start every exact solve from CLP's LP optimum.
    threads : int
        Worker threads (0 = all cores).

    Returns
    -------
    Schedule
        ``summary`` holds the keys of ``bfb --json`` (``tl``, ``tb`` and ``u_sum`` as Fractions,
        ``bandwidth_optimal``, ``verified``, ...); an ``error`` key when the checker rejected it
        or Theorem 20's bound does not hold (the CLI's exit 1).
    """
    request = _core.BfbRequest()
    request.file = topology.origin
    request.collective = collective
    request.chunks = 0 if chunks is None else int(chunks)
    request.alpha_file = "" if alpha_file is None else str(alpha_file)
    request.thm4 = bool(thm4)
    request.no_certificates = not certificates
    request.clp_hint = bool(clp_hint)
    request.threads = int(threads)
    return Schedule(topology, _core.bfb(topology._g, request, bool(compact)))


def baseline(topology, name, collective=None, chunks=1, order=None, dims=None, shifts=None,
             fan_out=0, ecmp_routes=64, relay=True):
    """A baseline schedule, checked (``collsynth baseline``).

    Parameters
    ----------
    topology : Topology
    name : str
        A step baseline (``uniring``, ``biring``, ``torus``, ``recursive-doubling``,
        ``dbtree``, ``multitree``, ...) or a routed one (``direct``, ``routed-ring``,
        ``routed-recursive-doubling``, ``routed-double-binary-tree``, ``hierarchical``), as ``collsynth baseline --help`` lists them; with
        ``collective="alltoall"``: ``direct``, ``ecmp`` or ``topoopt-forwarding`` (flows
        schedules; ``summary`` adds ``optimal_time`` T* and ``ratio_to_optimum``).
    collective : {"allgather", "reduce-scatter", "allreduce", "alltoall"}, optional
        Default: the baseline's own.
    chunks : int
        Pipeline chunks P (dbtree).
    order : list of str, optional
        Ring order by node name (rings, dbtree, routed baselines).
    dims : list of int, optional
        Grid dimensions (torus, multitree).
    shifts : list of int, optional
        Ring shifts (shifted rings).
    fan_out : int
        k-ary cap on MultiTree children (0 = none).
    ecmp_routes : int
        Routed baselines: at most this many shortest routes per tree edge.
    relay : bool
        All-to-all baselines: whether compute nodes other than the source may forward
        (``--no-relay`` when False).

    Returns
    -------
    Schedule
        ``"steps"`` (step baselines), ``"pipeline"`` (routed ones) or ``"flows"``
        (all-to-all); ``summary`` holds the
        keys of ``baseline --json`` (the checker's report, Fractions for rationals).

    Raises
    ------
    InputError
        The topology does not fit the baseline, or an unknown name or option.
    CheckError
        The checker rejected the built schedule (the CLI's exit 1).
    """
    checked = _core.baseline(topology._g, topology.origin, name, collective or "", int(chunks),
                             list(order or []), [int(d) for d in dims or []],
                             [int(p) for p in shifts or []], int(fan_out), int(ecmp_routes),
                             bool(relay))
    return Schedule(topology, checked)


def replay(source, profile=None, fifo=None, root=None, rounds=None, max_violations=50):
    """Replay an MSCCL XML file or an MSCCL++ plan (``collsynth replay --json``).

    The independent checker (proofs_check/msccl_replay.h, proofs_check/mscclpp_replay.h) loads
    it as the runtime would and checks that it implements its collective.

    Parameters
    ----------
    source : str or os.PathLike
        A path, or the document's text itself (a ``str`` whose first non-blank character is
        ``<`` or ``{``). A plan is text starting with ``{`` or a path ending in ``.json``.
    profile : {"executor", "rccl", "legacy"}, optional
        XML only: the runtime (default ``"executor"``).
    fifo : int, optional
        XML only: one-chunk transfers a connector holds (default: as the kernel).
    root : int, optional
        XML broadcast: the root rank (default 0).
    rounds : int, optional
        XML only: rounds of the chunk loop simulated (default 2).
    max_violations : int
        Violations listed.

    Returns
    -------
    dict
        The object of ``replay --json``: ``ok``, ``format``, ``coll``, ``ngpus``,
        ``nchunksperloop``, ``violations``, ``bytes_per_pair``, ``notes``, ... A rejected file
        is ``ok == False``, not an exception.

    Raises
    ------
    InputError
        An unreadable file or a bad option.
    """
    is_text = isinstance(source, str) and source.lstrip(" \t\r\n")[:1] in ("<", "{")
    given = [opt for opt, value in (("--profile", profile), ("--fifo", fifo), ("--root", root),
                                    ("--rounds", rounds)) if value is not None]
    return _json.loads(_core.replay(source if is_text else str(source), is_text,
                                    profile or "executor", 0 if fifo is None else int(fifo),
                                    0 if root is None else int(root),
                                    2 if rounds is None else int(rounds), int(max_violations),
                                    given))


def simulate(schedule, size, chunks=1, alpha=0, gamma=0, bandwidth_unit="GB/s",
             switch_model="store-and-forward", mode="sync", chunks_sweep=None, timeline_svg=None):
    """Simulate a checked schedule in exact time (``collsynth simulate --json``, docs/simulate.md).

    Parameters
    ----------
    schedule : Schedule
        A schedule the checker accepted, on its topology.
    size : int or str
        The message size M: bytes, or a string with a unit as on the command line ("1MB").
    chunks : int
        Pipeline schedules: chunks P per tree share; all-to-all flows: chunks P per path.
    alpha, gamma : str or Fraction
        Per-link latency (for links whose topology file gives none) and per-byte overhead, as on
        the command line ("1us", "1/1000000").
    bandwidth_unit, switch_model, mode : str
        As the options of the same names.
    chunks_sweep : list of int, optional
        Pipeline and flows schedules: simulate each P and report the fastest.
    timeline_svg : str or os.PathLike, optional
        Also draw the Gantt chart there (``simulate --timeline-svg``, docs/simulate.md
        "Timeline picture"): one row per link used, one bar per transfer on it with its exact
        start and end; written through the CLI's checked-output path.

    Returns
    -------
    dict
        The report of ``simulate --json``: ``completion_time`` (Fraction, seconds), the links'
        loads, the critical path; times and byte counts are Fractions. A flows schedule's
        report adds ``checked_time`` and ``bandwidth_bound`` (docs/simulate.md "All-to-all
        flows").

    Raises
    ------
    InputError
        Bad options, a schedule the checker rejects, ``timeline_svg`` not ending in .svg.
    CheckError
        The written timeline picture was rejected when read back (the CLI's exit 1).
    """
    if not schedule.verdict.ok:
        raise InputError("<python>: schedule: does not pass the checker, nothing simulated: "
                         + (schedule.verdict.errors[:1] or [schedule.verdict.verdict])[0],
                         "<python>", "schedule", "does not pass the checker")
    options = _core.SimulationOptions()
    options.size = str(size)
    options.chunks = str(chunks)
    options.alpha = str(alpha)
    options.gamma = str(gamma)
    options.bandwidth_unit = bandwidth_unit
    options.switch_model = switch_model
    options.mode = mode
    sweep = ",".join(str(p) for p in chunks_sweep) if chunks_sweep else ""
    topology = schedule.topology
    report = _exact(_json.loads(_core.simulate(topology._g, topology._file, schedule.to_json(),
                                               options, sweep,
                                               "" if timeline_svg is None else str(timeline_svg))))
    if "timeline_svg_error" in report:
        raise CheckError(f"simulate: {report['timeline_svg_error']}")
    return report


def tune(topology, sizes, out, collective="allgather", alpha=0, gamma=0, bandwidth_unit="GB/s",
         switch_model="store-and-forward", chunks_sweep=(1, 2, 4, 8, 16, 32, 64), export=None):
    """The fastest checked schedule per message size (``collsynth tune --json``, docs/tune.md).

    At each size every candidate the topology admits is simulated in exact time; the winner's
    schedule is written to ``out/<algorithm>.json`` through the checked-output path.

    Parameters
    ----------
    topology : Topology
        Its file's link latencies are used when it was read with :meth:`Topology.from_file`.
    sizes : list of str or int
        Message sizes M ("1KB", "1MB", or bytes).
    out : str or os.PathLike
        The directory for the winning schedules (created).
    collective : {"allgather", "reduce-scatter", "allreduce"}
    alpha, gamma, bandwidth_unit, switch_model
        As for :func:`simulate`.
    chunks_sweep : list of int
        P values tried for pipeline schedules.
    export : {None, "msccl", "mscclpp", "nccl-tuner"}
        ``tune --export``: also one replay-checked file per byte range under ``out/<export>/``
        and the index ``out/<export>-index.json`` (docs/tune.md "Export"); "nccl-tuner": the
        CSV of NCCL's example tuner plugin, ``out/nccl_tuner.conf``, and
        ``out/nccl-tuner-index.json`` (docs/tune.md "NCCL tuner table"); the sizes must then
        be increasing whole numbers of bytes.

    Returns
    -------
    dict
        The report of ``tune --json``: per size the winner, its exact ``time``, the lower bound
        and the gap (Fractions), every candidate's time and height; the ``ranges`` of sizes per
        winner; with ``export``, the index as ``export``.

    Raises
    ------
    InputError
        Bad options or input.
    CheckError
        A winning schedule could not be written (nothing is left at its path).
    """
    options = _core.SimulationOptions()
    options.alpha = str(alpha)
    options.gamma = str(gamma)
    options.bandwidth_unit = bandwidth_unit
    options.switch_model = switch_model
    sweep = ",".join(str(p) for p in chunks_sweep)
    return _exact(_json.loads(_core.tune_json(topology._g, topology._file,
                                              [str(size) for size in sizes], str(out), collective,
                                              options, sweep, export or "")))


def pareto(topology, collective="allgather", out=None):
    """The non-dominated (height, ratio) points among checked pipeline schedules
    (``collsynth pareto --json``, docs/min_height.md).

    Parameters
    ----------
    topology : Topology
    collective : {"allgather", "reduce-scatter", "allreduce"}
    out : str or os.PathLike, optional
        Write each point's schedule into this folder (checked from the bytes on disk).

    Returns
    -------
    dict
        The object of ``pareto --json``: ``points`` from the least height to the least ratio
        (``ratio`` a Fraction, ``height_hops``, ``schedule`` when written), every
        ``candidates``' figures, the certified ``ratio_lower_bound`` and
        ``height_lower_bound_hops``.

    Raises
    ------
    InputError
        Bad options or input.
    CheckError
        No candidate passed the checker, or a write failed (the CLI's exit 1).
    """
    return _exact(_json.loads(_core.pareto_json(topology._g, topology.origin, collective,
                                                "" if out is None else str(out))))


def _csv_value(cell):
    """A results.csv cell as Python: integers as int, exact rationals "p/q" as Fraction,
    true/false as bool, anything else (names, decimals for display) as the string."""
    from fractions import Fraction

    if cell in ("true", "false"):
        return cell == "true"
    body = cell[1:] if cell.startswith("-") else cell
    if body.isdigit():
        return int(cell)
    num, sep, den = body.partition("/")
    if sep and num.isdigit() and den.isdigit() and int(den) != 0:
        return Fraction(cell)
    return cell


def _run_experiment(name, out=None, dir="experiments", jobs=1, plots=False, frame=None):
    """Run a built-in experiment (``collsynth experiment run``, docs/experiments.md).

    Parameters
    ----------
    name : str
        A definition's name in ``dir`` (``collsynth experiment list``) or a path to one.
    out : str or os.PathLike, optional
        Also write the outputs there as the CLI does (results.csv, meta.json, the notebook,
        README.md; the plots when ``plots``).
    dir : str or os.PathLike
        The folder of definitions (default ``./experiments``, as the CLI).
    jobs : int
        Tasks run in parallel.
    frame : bool, optional
        Return a pandas DataFrame (default: when pandas can be imported).

    Returns
    -------
    list of dict or pandas.DataFrame
        The rows of results.csv: integers as int, exact rationals as Fraction, decimals (shown
        for people beside their exact column) as strings.
    """
    header, rows = _core.run_experiment(str(name), str(dir), "" if out is None else str(out),
                                        int(jobs), bool(plots))
    records = [dict(zip(header, map(_csv_value, row))) for row in rows]
    return _frame_or_records(header, records, frame)


def _frame_or_records(header, records, frame):
    if frame is None:
        try:
            import pandas  # noqa: F401
            frame = True
        except ImportError:
            frame = False
    if frame:
        import pandas

        return pandas.DataFrame.from_records(records, columns=header)
    return records


def _load_experiment(folder=".", frame=None):
    """Read the rows an experiment run left in ``folder`` (its results.csv), exactly.

    Parameters
    ----------
    folder : str or os.PathLike
        An output folder of ``collsynth experiment run`` (e.g. ``notebooks_data/quick-start``).
    frame : bool, optional
        Return a pandas DataFrame (default: when pandas can be imported).

    Returns
    -------
    list of dict or pandas.DataFrame
        The rows with the same values as :func:`experiments.run` returns: integers as int,
        exact rationals as Fraction, decimals for people as strings.

    Raises
    ------
    InputError
        The folder has no results.csv.
    """
    import csv
    import os

    path = os.path.join(os.fspath(folder), "results.csv")
    if not os.path.isfile(path):
        raise InputError(f"{path}: no results yet: run `collsynth experiment run NAME`", path, "",
                         "no results yet")
    with open(path, newline="") as f:
        reader = csv.reader(f)
        header = next(reader, [])
        records = [dict(zip(header, map(_csv_value, row))) for row in reader]
    return _frame_or_records(header, records, frame)


def _cell_text(value):
    """A row value as its results.csv cell (true/false, p/q, integers, text)."""
    if isinstance(value, bool):
        return "true" if value else "false"
    return "" if value is None else str(value)


def _cell_number(value):
    """A row value as an exact number for plotting, or None (empty, text, true/false)."""
    from fractions import Fraction

    if isinstance(value, bool) or value is None:
        return None
    if isinstance(value, (int, Fraction)):
        return Fraction(value)
    try:
        return Fraction(str(value))
    except (ValueError, ZeroDivisionError):
        return None


def _figure_series(rows, x, y, group=None, panels=None, where=None):
    """The lines of one figure of an experiment, as ``collsynth experiment`` plots them.

    The same selection as the gnuplot data the CLI writes (``PLOT.dat``, docs/experiments.md
    "Definition format"): rows whose ``where`` cells match and whose ``y`` is a number; one panel
    per value of ``panels`` and in it one line per value of ``group`` (both in order of first
    appearance), points sorted by x (stable). When some kept x is not a number, x is a category
    axis: a panel's x values are numbered in order of first appearance, line by line.

    Parameters
    ----------
    rows : list of dict or pandas.DataFrame
        Rows of :func:`experiments.run` or :func:`experiments.load`.
    x, y : str
        Column names.
    group, panels : str, optional
        Columns splitting the rows into lines and panels.
    where : dict, optional
        Column name -> cell text the rows must have.

    Returns
    -------
    dict
        ``numeric_x`` (bool) and ``panels``: a list of ``{"name", "categories", "lines"}``
        (``name`` None without ``panels``; ``categories`` the x labels of a category axis),
        each line ``{"name", "points"}`` with ``points`` a list of (x, y) Fractions (x the
        category index on a category axis).
    """
    if hasattr(rows, "to_dict"):
        rows = rows.to_dict("records")
    where = where or {}
    kept = []
    for r in rows:
        if any(_cell_text(r.get(k)) != v for k, v in where.items()):
            continue
        if _cell_number(r.get(y)) is None:
            continue
        kept.append(r)
    numeric_x = all(_cell_number(r.get(x)) is not None for r in kept)
    order = {}
    for r in kept:
        p = _cell_text(r.get(panels)) if panels else None
        g = _cell_text(r.get(group)) if group else y
        order.setdefault(p, {}).setdefault(g, []).append(r)
    out = []
    for p, lines in order.items():
        categories, index = [], {}
        if not numeric_x:
            for rs in lines.values():
                for r in rs:
                    label = _cell_text(r.get(x))
                    if label not in index:
                        index[label] = len(categories)
                        categories.append(label)
        panel = {"name": p, "categories": categories, "lines": []}
        for g, rs in lines.items():
            points = [(_cell_number(r[x]) if numeric_x else index[_cell_text(r.get(x))],
                       _cell_number(r[y])) for r in rs]
            points.sort(key=lambda point: point[0])  # stable, as the CLI's data
            panel["lines"].append({"name": g, "points": points})
        out.append(panel)
    return {"numeric_x": numeric_x, "panels": out}


experiments = _Namespace(run=_run_experiment, load=_load_experiment,
                         figure_series=_figure_series)
"""The experiments: ``collsynth.experiments.run(name, out=None, ...)`` computes the rows,
``load(folder)`` reads a run's results.csv exactly, ``figure_series(rows, x, y, ...)`` selects
a figure's lines as ``collsynth experiment`` plots them."""


def draw(topology, out, schedule=None, tree=None, cut=False, title=None):
    """Draw a topology or a schedule (``collsynth draw``, docs/draw.md) to ``out``.

    Parameters
    ----------
    topology : Topology
    out : str or os.PathLike
        ``.svg`` or ``.png`` (rendered by Graphviz's ``dot``) or ``.dot``; written through the
        checked-output path (the SVG is parsed back and its nodes and edges counted).
    schedule : Schedule, optional
        A checked pipeline schedule: its link loads as a heat map, its bottleneck cut marked.
    tree : str, optional
        ``"ROOT"`` or ``"ROOT:I"``: draw that tree's routes instead of the loads.
    cut : bool
        Without a schedule: mark the bottleneck cut S* of the allgather optimum.
    title : str, optional

    Returns
    -------
    str
        ``out``, for ``IPython.display.SVG(collsynth.draw(...))``.
    """
    text = ""
    if schedule is not None:
        if not schedule.verdict.ok:
            raise InputError("<python>: schedule: does not pass the checker, nothing drawn",
                             "<python>", "schedule", "does not pass the checker")
        text = schedule.to_json()
    error = _core.draw(topology._g, topology._file or topology.origin, text, str(out), tree or "",
                       bool(cut), title or "")
    if error:
        raise CheckError(f"draw: {error}")
    return str(out)
