#include "solvers/bfb/heterogeneous_bfb.h"

#include "core/input_error.h"
#include "core/json_io.h"

namespace collsynth {

std::vector<Rational> LinkAlphasFromJson(const nlohmann::json& j, const Topology& g,
                                         const std::string& file) {
  if (!j.is_object()) throw InputError(file, "", "expected a JSON object with \"links\"");
  Rational def(0);
  if (j.contains("default_alpha"))
    def = RationalFromJson(j["default_alpha"], file, "default_alpha");
  if (def < 0) throw InputError(file, "default_alpha", "alpha must be >= 0");
  std::vector<Rational> alpha(g.num_links(), def);
  std::vector<bool> seen(g.num_links(), false);
  if (!j.contains("links")) return alpha;
  if (!j["links"].is_array()) throw InputError(file, "links", "expected an array");
  for (std::size_t i = 0; i < j["links"].size(); ++i) {
    const std::string item = "links[" + std::to_string(i) + "]";
    const nlohmann::json& e = j["links"][i];
    if (!e.is_object() || !e.contains("from") || !e.contains("to") || !e.contains("alpha") ||
        !e["from"].is_string() || !e["to"].is_string())
      throw InputError(file, item, "expected {\"from\": NAME, \"to\": NAME, \"alpha\": RATIONAL}");
    auto from = g.FindNode(e["from"].get<std::string>());
    auto to = g.FindNode(e["to"].get<std::string>());
    if (!from || !to) throw InputError(file, item, "unknown node");
    auto link = g.FindLink(*from, *to);
    if (!link)
      throw InputError(file, item, "no link " + g.node(*from).name + " -> " + g.node(*to).name);
    if (seen[*link]) throw InputError(file, item, "duplicate alpha for this link");
    seen[*link] = true;
    alpha[*link] = RationalFromJson(e["alpha"], file, item + ".alpha");
    if (alpha[*link] < 0) throw InputError(file, item + ".alpha", "alpha must be >= 0");
  }
  return alpha;
}

BfbResult GenerateHeterogeneousBfbSchedule(const Topology& g,
                                           const std::vector<Rational>& link_alpha,
                                           BfbOptions options) {
  options.link_alpha = link_alpha;
  return GenerateBfbSchedule(g, options);
}

}  // namespace collsynth
