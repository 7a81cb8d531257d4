// The LEMON headers the solvers use (SmartDigraph, Preflow, HaoOrlin), included in one place.
// GCC 12 at -O2/-O3 reports -Wmaybe-uninitialized inside LEMON 1.3.1's SmartDigraph::addNode /
// addArc wherever they are inlined: they push back a NodeT()/ArcT() whose empty constructor
// leaves the ints unset and overwrite every field right after (lemon/smart_graph.h), so no unset
// value is ever used. The build uses -Werror (CMakeLists.txt), which would turn this false
// positive from a system header into a failure; it is silenced here for LEMON's templates only
// (clang does not report it). Include LEMON through this header, never directly.
#ifndef COLLSYNTH_SOLVERS_BACKENDS_LEMON_GRAPH_H_
#define COLLSYNTH_SOLVERS_BACKENDS_LEMON_GRAPH_H_

#if defined(__GNUC__) && !defined(__clang__)
#pragma GCC diagnostic push
#pragma GCC diagnostic ignored "-Wmaybe-uninitialized"
#endif
#include <lemon/hao_orlin.h>
#include <lemon/preflow.h>
#include <lemon/smart_graph.h>
#if defined(__GNUC__) && !defined(__clang__)
#pragma GCC diagnostic pop
#endif

#endif  // COLLSYNTH_SOLVERS_BACKENDS_LEMON_GRAPH_H_
