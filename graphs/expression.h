// The topology expression language of `collsynth topo gen 'EXPR'` (grammar and families in
// docs/topologies.md). An expression names a topology in the papers' notation and composes:
//
//   expr  := IDENT '(' [ arg { ',' arg } ] ')'
//   arg   := expr | NUMBER | IDENT          (a bare IDENT is a word, e.g. iq, paley9)
//   NUMBER:= ['-'] digits [ '/' digits | '.' digits ]   (exact rational)
//
// e.g. line(line(circulant(16,3,4))), product(uniring(1,4),uniring(1,8)),
// power(hamming(2,3),2). Families are looked up in AllFamilies() (graphs/family.h).
//
// Errors: InputError("<expr>", ITEM, PROBLEM) where ITEM is the offending sub-expression
// as written (or "column N" for syntax errors): unknown family (with suggestions), wrong
// arity, non-integer or out-of-range parameter, a size above the generator limits
// (kMaxGeneratedNodes / kMaxGeneratedLinks, graphs/generators/family_args.h). The size is
// computed from the expression first, bottom-up and exactly (BigInt): every family with a
// size function (graphs/family.h; all seed 000 families and every expansion) knows its node
// and link counts from its parameters and its operands' sizes, so an absurd expression is
// refused in O(length), naming the innermost sub-expression above the limits and its real
// size, before anything is built. Expressions longer than kMaxExpressionLength characters or nested
// deeper than kMaxExpressionDepth are refused. Parsing is O(length); evaluation costs what the
// generators cost.
#ifndef COLLSYNTH_GRAPHS_EXPRESSION_H_
#define COLLSYNTH_GRAPHS_EXPRESSION_H_

#include <optional>
#include <string>
#include <vector>

#include "graphs/family.h"
#include "graphs/topology.h"

namespace collsynth {

inline constexpr std::size_t kMaxExpressionLength = 10000;
inline constexpr int kMaxExpressionDepth = 64;

// Evaluates `expr`; the result's name() is the canonical form of the expression (no spaces).
Topology EvaluateTopologyExpression(const std::string& expr);

// The size `expr` would have, computed without building anything; std::nullopt when some
// family in it has no size function. InputError as EvaluateTopologyExpression for syntax,
// arguments and sizes above the limits.
std::optional<TopologySize> EstimateTopologyExpressionSize(const std::string& expr);

// Canonical text of `expr` (parsed and re-printed, no evaluation); InputError on syntax errors.
std::string CanonicalTopologyExpression(const std::string& expr);

// Family names close to `name` (shared prefix or edit distance <= 2), best first.
std::vector<std::string> SuggestFamilies(const std::string& name);

}  // namespace collsynth

#endif  // COLLSYNTH_GRAPHS_EXPRESSION_H_
