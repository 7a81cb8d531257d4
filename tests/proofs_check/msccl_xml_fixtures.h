// MSCCL XML test vectors for the replay checker (library and CLI tests), written here from the
// schema in docs/export.md "The MSCCL XML schema" and "Buffer layout per collective": a tiny
// builder that prints the lexical profile the runtime accepts (two-space indentation, one element
// per line, double-quoted attributes on one line), and correct schedules to corrupt.
#ifndef COLLSYNTH_TESTS_PROOFS_CHECK_MSCCL_XML_FIXTURES_H_
#define COLLSYNTH_TESTS_PROOFS_CHECK_MSCCL_XML_FIXTURES_H_

#include <string>
#include <vector>

namespace collsynth::testing {

struct XStep {
  std::string type;
  std::string srcbuf = "i";
  int srcoff = 0;
  std::string dstbuf = "o";
  int dstoff = 0;
  int cnt = 1;
  int depid = -1, deps = -1, hasdep = 0;
};

struct XTb {
  int id = 0, send = -1, recv = -1, chan = 0;
  std::vector<XStep> steps;
};

struct XGpu {
  int id = 0, i_chunks = 0, o_chunks = 0, s_chunks = 0;
  std::vector<XTb> tbs;
};

struct XAlgo {
  std::string name = "test", proto = "Simple", coll = "allgather";
  int nchannels = 1, nchunksperloop = 1, ngpus = 1, inplace = 0, outofplace = 1;
  bool legacy = false;  // no outofplace, a finite maxBytes (microsoft/msccl src/graph/topo.cc)
  std::vector<XGpu> gpus;
};

inline XStep St(const std::string& type, const std::string& srcbuf, int srcoff,
                const std::string& dstbuf, int dstoff, int cnt = 1) {
  XStep s;
  s.type = type;
  s.srcbuf = srcbuf;
  s.srcoff = srcoff;
  s.dstbuf = dstbuf;
  s.dstoff = dstoff;
  s.cnt = cnt;
  return s;
}
inline XStep Nop() { return St("nop", "i", -1, "o", -1, 0); }

inline std::string ToXml(const XAlgo& a) {
  auto q = [](auto v) { return "\"" + std::to_string(v) + "\""; };
  std::string x = "<algo name=\"" + a.name + "\" proto=\"" + a.proto +
                  "\" nchannels=" + q(a.nchannels) + " nchunksperloop=" + q(a.nchunksperloop) +
                  " ngpus=" + q(a.ngpus) + " coll=\"" + a.coll + "\" inplace=" + q(a.inplace);
  x += a.legacy ? " minBytes=\"0\" maxBytes=\"1099511627776\">\n"
                : " outofplace=" + q(a.outofplace) + " minBytes=\"0\" maxBytes=\"0\">\n";
  for (const XGpu& g : a.gpus) {
    x += "  <gpu id=" + q(g.id) + " i_chunks=" + q(g.i_chunks) + " o_chunks=" + q(g.o_chunks) +
         " s_chunks=" + q(g.s_chunks) + ">\n";
    for (const XTb& t : g.tbs) {
      x += "    <tb id=" + q(t.id) + " send=" + q(t.send) + " recv=" + q(t.recv) +
           " chan=" + q(t.chan) + ">\n";
      for (std::size_t i = 0; i < t.steps.size(); ++i) {
        const XStep& s = t.steps[i];
        x += "      <step s=" + q(i) + " type=\"" + s.type + "\" srcbuf=\"" + s.srcbuf +
             "\" srcoff=" + q(s.srcoff) + " dstbuf=\"" + s.dstbuf + "\" dstoff=" + q(s.dstoff) +
             " cnt=" + q(s.cnt) + " depid=" + q(s.depid) + " deps=" + q(s.deps) +
             " hasdep=" + q(s.hasdep) + "/>\n";
      }
      x += "    </tb>\n";
    }
    x += "  </gpu>\n";
  }
  x += "</algo>\n";
  return x;
}

// Ring allgather on n GPUs, k chunks per rank (nchunksperloop = n*k), one block per GPU
// (send r+1, recv r-1): out-of-place copies i -> o[r*k..] first; then s, n-2 x rcs, r, each
// step moving the k chunks of one rank.
inline XAlgo RingAllgather(int n, int k, bool inplace, const std::string& proto = "Simple") {
  XAlgo a;
  a.proto = proto;
  a.coll = "allgather";
  a.ngpus = n;
  a.nchunksperloop = n * k;
  a.inplace = inplace ? 1 : 0;
  a.outofplace = inplace ? 0 : 1;
  for (int r = 0; r < n; ++r) {
    XGpu g;
    g.id = r;
    g.i_chunks = inplace ? 0 : k;
    g.o_chunks = n * k;
    XTb t;
    t.send = (r + 1) % n;
    t.recv = (r + n - 1) % n;
    if (!inplace) t.steps.push_back(St("cpy", "i", 0, "o", r * k, k));
    t.steps.push_back(St("s", "o", r * k, "o", r * k, k));
    for (int j = 1; j < n; ++j) {
      const int c = ((r - j) % n + n) % n * k;
      t.steps.push_back(St(j + 1 < n ? "rcs" : "r", "o", c, "o", c, k));
    }
    g.tbs.push_back(t);
    a.gpus.push_back(g);
  }
  return a;
}

// Allreduce on 2 GPUs, nchunksperloop 2, valid both in place and out of place: send the
// peer's chunk, receive-reduce own chunk into o, send it back, receive the peer's result.
inline XAlgo Allreduce2() {
  XAlgo a;
  a.coll = "allreduce";
  a.ngpus = 2;
  a.nchunksperloop = 2;
  a.inplace = 1;
  a.outofplace = 1;
  for (int r = 0; r < 2; ++r) {
    XGpu g;
    g.id = r;
    g.i_chunks = 2;
    g.o_chunks = 2;
    XTb t;
    t.send = t.recv = 1 - r;
    t.steps = {St("s", "i", 1 - r, "o", 1 - r), St("rrc", "i", r, "o", r), St("s", "o", r, "o", r),
               St("r", "o", 1 - r, "o", 1 - r)};
    g.tbs.push_back(t);
    a.gpus.push_back(g);
  }
  return a;
}

// Ring reduce-scatter on n GPUs (chunk r's result at rank r, one chunk per rank): s the
// chunk of r-1, rrs for r-2 .. r-n+1, rrc of chunk r into o[0]. Both in place and out of place.
inline XAlgo RingReduceScatter(int n, const std::string& coll = "reducescatter") {
  XAlgo a;
  a.coll = coll;
  a.ngpus = n;
  a.nchunksperloop = n;
  a.inplace = 1;
  a.outofplace = 1;
  for (int r = 0; r < n; ++r) {
    XGpu g;
    g.id = r;
    g.i_chunks = n;
    g.o_chunks = 1;
    XTb t;
    t.send = (r + 1) % n;
    t.recv = (r + n - 1) % n;
    auto m = [n](int x) { return ((x % n) + n) % n; };
    t.steps.push_back(St("s", "i", m(r - 1), "o", 0));
    for (int j = 1; j + 1 < n; ++j) t.steps.push_back(St("rrs", "i", m(r - 1 - j), "o", 0));
    t.steps.push_back(St("rrc", "i", r, "o", 0));
    g.tbs.push_back(t);
    a.gpus.push_back(g);
  }
  return a;
}

// Ring allreduce on n GPUs, one chunk per rank and one block per GPU (send r+1, recv r-1):
// the reduce-scatter ring (s, n-2 x rrs), rrcs of the rank's own chunk into o, then the
// allgather ring of the results (n-2 x rcs, r). Both in place and out of place.
inline XAlgo RingAllreduce(int n) {
  XAlgo a;
  a.coll = "allreduce";
  a.ngpus = n;
  a.nchunksperloop = n;
  a.inplace = 1;
  a.outofplace = 1;
  auto m = [n](int x) { return ((x % n) + n) % n; };
  for (int r = 0; r < n; ++r) {
    XGpu g;
    g.id = r;
    g.i_chunks = n;
    g.o_chunks = n;
    XTb t;
    t.send = m(r + 1);
    t.recv = m(r - 1);
    t.steps.push_back(St("s", "i", m(r - 1), "o", 0));
    for (int j = 1; j + 1 < n; ++j) t.steps.push_back(St("rrs", "i", m(r - 1 - j), "o", 0));
    t.steps.push_back(St("rrcs", "i", r, "o", r));
    for (int j = 1; j + 1 < n; ++j) t.steps.push_back(St("rcs", "o", m(r - j), "o", m(r - j)));
    t.steps.push_back(St("r", "o", m(r + 1), "o", m(r + 1)));
    g.tbs.push_back(t);
    a.gpus.push_back(g);
  }
  return a;
}

// Reduce-scatter on 3 GPUs through scratch: tb 0 and tb 1 exchange with d+1 and d+2, each
// receiving the peer's contribution into its own scratch slot (hasdep); tb 2 copies the own
// contribution to o[0], then a nop waits for tb 1 and two fused re steps (the first waiting
// for tb 0) add both slots into o[0]. Out of place.
inline XAlgo ScratchReduceScatter3() {
  XAlgo a;
  a.coll = "reducescatter";
  a.ngpus = 3;
  a.nchunksperloop = 3;
  for (int d = 0; d < 3; ++d) {
    XGpu g;
    g.id = d;
    g.i_chunks = 3;
    g.o_chunks = 1;
    g.s_chunks = 2;
    for (int k = 0; k < 2; ++k) {
      XTb t;
      t.id = k;
      t.send = t.recv = (d + 1 + k) % 3;
      XStep recv = St("r", "s", k, "s", k);
      recv.hasdep = 1;
      t.steps = {St("s", "i", (d + 1 + k) % 3, "s", 0), recv};
      g.tbs.push_back(t);
    }
    XTb local;
    local.id = 2;
    XStep nop = Nop();
    nop.depid = 1;
    nop.deps = 1;
    XStep re0 = St("re", "s", 0, "o", 0);
    re0.depid = 0;
    re0.deps = 1;
    local.steps = {St("cpy", "i", d, "o", 0), nop, re0, St("re", "s", 1, "o", 0)};
    g.tbs.push_back(local);
    a.gpus.push_back(g);
  }
  return a;
}

// Broadcast from rank 0 along the chain 0 -> 1 -> ... -> n-1, c chunks, out of place.
inline XAlgo ChainBroadcast(int n, int c) {
  XAlgo a;
  a.coll = "broadcast";
  a.ngpus = n;
  a.nchunksperloop = c;
  for (int r = 0; r < n; ++r) {
    XGpu g;
    g.id = r;
    g.i_chunks = c;
    g.o_chunks = c;
    XTb t;
    t.send = r + 1 < n ? r + 1 : -1;
    t.recv = r > 0 ? r - 1 : -1;
    if (r == 0) {
      t.steps = {St("cpy", "i", 0, "o", 0, c), St("s", "o", 0, "o", 0, c)};
    } else {
      t.steps = {St(r + 1 < n ? "rcs" : "r", "o", 0, "o", 0, c)};
    }
    g.tbs.push_back(t);
    a.gpus.push_back(g);
  }
  return a;
}

// Reduce-scatter on 3 GPUs as stars: each rank d receives its chunk from d+1 (tb 1) and d+2
// (tb 0) and reduces both into o[0]; tb 1's rrc depends on tb 0's (hasdep), which orders the
// two writes. Out of place.
inline XAlgo StarReduceScatter3() {
  XAlgo a;
  a.coll = "reducescatter";
  a.ngpus = 3;
  a.nchunksperloop = 3;
  for (int d = 0; d < 3; ++d) {
    XGpu g;
    g.id = d;
    g.i_chunks = 3;
    g.o_chunks = 1;
    XTb t0, t1;
    t0.id = 0;
    t0.send = t0.recv = (d + 1) % 3;
    t1.id = 1;
    t1.send = t1.recv = (d + 2) % 3;
    XStep rrc0 = St("rrc", "i", d, "o", 0);
    rrc0.hasdep = 1;
    XStep rrc1 = St("rrc", "o", 0, "o", 0);
    rrc1.depid = 0;
    rrc1.deps = 1;
    t0.steps = {St("s", "i", (d + 1) % 3, "o", 0), rrc0};
    t1.steps = {St("s", "i", (d + 2) % 3, "o", 0), rrc1};
    g.tbs = {t0, t1};
    a.gpus.push_back(g);
  }
  return a;
}

// Direct allgather on n GPUs in place: one block per peer p (send = recv = p) doing s o[r],
// r o[p]: n(n-1) blocks in all, the shape with the most blocks per step.
inline XAlgo DirectAllgather(int n) {
  XAlgo a;
  a.coll = "allgather";
  a.ngpus = n;
  a.nchunksperloop = n;
  a.inplace = 1;
  a.outofplace = 0;
  for (int r = 0; r < n; ++r) {
    XGpu g;
    g.id = r;
    g.o_chunks = n;
    for (int p = 0; p < n; ++p) {
      if (p == r) continue;
      XTb t;
      t.id = static_cast<int>(g.tbs.size());
      t.send = t.recv = p;
      t.steps = {St("s", "o", r, "o", r), St("r", "o", p, "o", p)};
      g.tbs.push_back(t);
    }
    a.gpus.push_back(g);
  }
  return a;
}

}  // namespace collsynth::testing

#endif  // COLLSYNTH_TESTS_PROOFS_CHECK_MSCCL_XML_FIXTURES_H_
