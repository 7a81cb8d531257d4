#include "graphs/expression.h"

#include <algorithm>
#include <cctype>
#include <memory>
#include <optional>
#include <stdexcept>

#include "core/input_error.h"
#include "graphs/family.h"
#include "graphs/generators/family_args.h"

namespace collsynth {
namespace {

const char kFile[] = "<expr>";

struct Ast {
  enum class Kind { kCall, kNumber, kWord } kind = Kind::kCall;
  std::string name;  // call / word
  Rational number;
  std::vector<Ast> args;
  std::size_t begin = 0, end = 0;  // source span
};

class Parser {
 public:
  explicit Parser(const std::string& text) : text_(text) {}

  Ast ParseTop() {
    SkipSpace();
    if (pos_ >= text_.size()) Fail("empty expression; expected e.g. kautz(2,3)");
    Ast a = ParseArg(0);
    SkipSpace();
    if (pos_ != text_.size())
      Fail("unexpected '" + std::string(1, text_[pos_]) + "' after the expression");
    if (a.kind != Ast::Kind::kCall) {
      throw InputError(kFile, "'" + text_ + "'",
                       "expected a topology expression such as kautz(2,3) or torus(4,4)");
    }
    return a;
  }

 private:
  [[noreturn]] void Fail(const std::string& problem) const {
    throw InputError(kFile, "'" + text_ + "' column " + std::to_string(pos_ + 1), problem);
  }
  void SkipSpace() {
    while (pos_ < text_.size() && std::isspace(static_cast<unsigned char>(text_[pos_]))) ++pos_;
  }
  static bool IdentStart(char c) { return std::isalpha(static_cast<unsigned char>(c)) || c == '_'; }
  static bool IdentChar(char c) { return std::isalnum(static_cast<unsigned char>(c)) || c == '_'; }

  Ast ParseArg(int depth) {
    if (depth > kMaxExpressionDepth)
      Fail("expression nested deeper than " + std::to_string(kMaxExpressionDepth));
    SkipSpace();
    if (pos_ >= text_.size()) Fail("unexpected end of expression");
    char c = text_[pos_];
    Ast a;
    a.begin = pos_;
    if (IdentStart(c)) {
      while (pos_ < text_.size() && IdentChar(text_[pos_])) ++pos_;
      a.name = text_.substr(a.begin, pos_ - a.begin);
      std::size_t after_ident = pos_;
      SkipSpace();
      if (pos_ < text_.size() && text_[pos_] == '(') {
        a.kind = Ast::Kind::kCall;
        ++pos_;
        SkipSpace();
        if (pos_ < text_.size() && text_[pos_] == ')') {
          ++pos_;
        } else {
          while (true) {
            a.args.push_back(ParseArg(depth + 1));
            SkipSpace();
            if (pos_ < text_.size() && text_[pos_] == ',') {
              ++pos_;
              continue;
            }
            if (pos_ < text_.size() && text_[pos_] == ')') {
              ++pos_;
              break;
            }
            Fail(pos_ < text_.size()
                     ? "expected ',' or ')' but found '" + std::string(1, text_[pos_]) + "'"
                     : "missing ')'");
          }
        }
        a.end = pos_;
      } else {
        pos_ = after_ident;
        a.kind = Ast::Kind::kWord;
        a.end = pos_;
      }
      return a;
    }
    if (std::isdigit(static_cast<unsigned char>(c)) || c == '-' || c == '+' || c == '.') {
      std::size_t start = pos_;
      if (c == '-' || c == '+') ++pos_;
      while (pos_ < text_.size() && (std::isdigit(static_cast<unsigned char>(text_[pos_])) ||
                                     text_[pos_] == '.' || text_[pos_] == '/')) {
        ++pos_;
      }
      std::string tok = text_.substr(start, pos_ - start);
      if (!tok.empty() && tok[0] == '+') tok.erase(0, 1);
      try {
        a.number = ParseRational(tok);
      } catch (const std::invalid_argument& e) {
        pos_ = start;
        Fail("bad number '" + tok + "': " + e.what());
      }
      a.kind = Ast::Kind::kNumber;
      a.end = pos_;
      return a;
    }
    Fail("unexpected '" + std::string(1, c) + "'; expected a family call, a number or a word");
  }

  const std::string& text_;
  std::size_t pos_ = 0;
};

std::string Lower(std::string s) {
  std::transform(s.begin(), s.end(), s.begin(), [](unsigned char c) { return std::tolower(c); });
  return s;
}

std::string Canonical(const Ast& a) {
  switch (a.kind) {
    case Ast::Kind::kNumber:
      return ToString(a.number);
    case Ast::Kind::kWord:
      return Lower(a.name);
    case Ast::Kind::kCall: {
      std::string s = Lower(a.name) + "(";
      for (std::size_t i = 0; i < a.args.size(); ++i) s += (i ? "," : "") + Canonical(a.args[i]);
      return s + ")";
    }
  }
  return "";
}

const Family* FindFamily(const std::string& name) {
  const auto& all = AllFamilies();
  auto it = std::lower_bound(all.begin(), all.end(), name,
                             [](const Family& f, const std::string& n) { return f.name < n; });
  if (it != all.end() && it->name == name) return &*it;
  return nullptr;
}

std::size_t EditDistance(const std::string& a, const std::string& b) {
  std::vector<std::size_t> prev(b.size() + 1), cur(b.size() + 1);
  for (std::size_t j = 0; j <= b.size(); ++j) prev[j] = j;
  for (std::size_t i = 1; i <= a.size(); ++i) {
    cur[0] = i;
    for (std::size_t j = 1; j <= b.size(); ++j) {
      cur[j] =
          std::min({prev[j] + 1, cur[j - 1] + 1, prev[j - 1] + (a[i - 1] == b[j - 1] ? 0 : 1)});
    }
    std::swap(prev, cur);
  }
  return prev[b.size()];
}

const Family& LookupFamily(const Ast& a, const std::string& item) {
  std::string lower = Lower(a.name);
  const Family* fam = FindFamily(lower);
  if (fam) return *fam;
  auto sugg = SuggestFamilies(lower);
  std::string problem = "unknown topology family '" + a.name + "'";
  if (!sugg.empty()) {
    problem += "; did you mean ";
    for (std::size_t i = 0; i < sugg.size(); ++i) problem += (i ? ", " : "") + sugg[i];
    problem += "?";
  }
  problem += " (collsynth topo gen --list shows all families)";
  throw InputError(kFile, item, problem);
}

// Runs `f` (a family's size or build function) and turns its exceptions into InputError
// naming `item`.
template <typename F>
auto RunFamily(const std::string& item, F&& f) -> decltype(f()) {
  try {
    return f();
  } catch (const InputError&) {
    throw;
  } catch (const std::invalid_argument& e) {
    throw InputError(kFile, item, e.what());
  } catch (const std::out_of_range& e) {
    throw InputError(kFile, item, e.what());
  } catch (const std::overflow_error& e) {
    throw InputError(kFile, item, std::string("size overflow: ") + e.what());
  }  // std::bad_alloc passes: a size the checks let through is a program fault (exit 3)
}

// A number or word argument (calls are filled in by the caller).
GenArg LeafArg(const Ast& x) {
  GenArg g;
  if (x.kind == Ast::Kind::kNumber) {
    g.kind = GenArg::Kind::kNumber;
    g.number = x.number;
  } else if (x.kind == Ast::Kind::kWord) {
    g.kind = GenArg::Kind::kWord;
    g.word = Lower(x.name);
  } else {
    g.kind = GenArg::Kind::kTopology;
  }
  return g;
}

// The size of `a` computed from the parameters alone, bottom-up; refuses (InputError naming
// the innermost sub-expression above the limits) before anything is built. std::nullopt when
// some family on the way cannot tell its size without being built. O(length of the
// expression); exact BigInt arithmetic, so no size overflows.
std::optional<TopologySize> EstimateSize(const Ast& a, const std::string& text) {
  std::string item = text.substr(a.begin, a.end - a.begin);
  const Family& fam = LookupFamily(a, item);
  std::vector<GenArg> args;
  bool known = true;
  for (const Ast& x : a.args) {
    GenArg g = LeafArg(x);
    if (x.kind == Ast::Kind::kCall) {
      g.size = EstimateSize(x, text);
      known = known && g.size.has_value();
    }
    args.push_back(std::move(g));
  }
  if (!fam.size || !known) return std::nullopt;
  return RunFamily(item, [&] {
    TopologySize size = fam.size(args);
    CheckTopologySize(size, item);
    return size;
  });
}

Topology Evaluate(const Ast& a, const std::string& text) {
  std::string item = text.substr(a.begin, a.end - a.begin);
  const Family& fam = LookupFamily(a, item);
  std::vector<GenArg> args;
  for (const Ast& x : a.args) {
    GenArg g = LeafArg(x);
    if (x.kind == Ast::Kind::kCall)
      g.topology = std::make_shared<const Topology>(Evaluate(x, text));
    args.push_back(std::move(g));
  }
  Topology t = RunFamily(item, [&] {
    // The operands are built now: their exact sizes decide before this level is built
    // (EstimateSize could not when some operand's family has no size function).
    if (fam.size) CheckTopologySize(fam.size(args), item);
    return fam.build(args);
  });
  t.set_name(Canonical(a));
  return t;
}

Ast ParseChecked(const std::string& expr) {
  if (expr.size() > kMaxExpressionLength) {
    throw InputError(kFile, "expression",
                     "longer than " + std::to_string(kMaxExpressionLength) + " characters");
  }
  return Parser(expr).ParseTop();
}

}  // namespace

std::vector<std::string> SuggestFamilies(const std::string& name) {
  std::vector<std::pair<std::size_t, std::string>> scored;
  for (const Family& f : AllFamilies()) {
    std::size_t d = EditDistance(name, f.name);
    bool prefix = name.size() >= 3 && (f.name.rfind(name.substr(0, 3), 0) == 0);
    if (d <= 2 || prefix) scored.emplace_back(prefix && d > 2 ? 3 : d, f.name);
  }
  std::sort(scored.begin(), scored.end());
  std::vector<std::string> out;
  for (auto& s : scored) out.push_back(s.second);
  if (out.size() > 5) out.resize(5);
  return out;
}

std::optional<TopologySize> EstimateTopologyExpressionSize(const std::string& expr) {
  Ast a = ParseChecked(expr);
  return EstimateSize(a, expr);
}

std::string CanonicalTopologyExpression(const std::string& expr) {
  return Canonical(ParseChecked(expr));
}

Topology EvaluateTopologyExpression(const std::string& expr) {
  Ast a = ParseChecked(expr);
  EstimateSize(a, expr);
  return Evaluate(a, expr);
}

}  // namespace collsynth
