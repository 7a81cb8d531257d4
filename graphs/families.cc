// AllFamilies(): every family of the expression language, sorted by name. Duplicate names
// across groups are a programming error and make the first call throw std::logic_error.
#include <algorithm>
#include <stdexcept>

#include "graphs/family.h"

namespace collsynth {

const std::vector<Family>& AllFamilies() {
  static const std::vector<Family> all = [] {
    std::vector<Family> f = Seed000Families();
    for (Family& x : ExpansionFamilies()) f.push_back(std::move(x));
    for (Family& x : OtherFamilies()) f.push_back(std::move(x));
    for (Family& x : Seed003ComparisonFamilies()) f.push_back(std::move(x));
    std::sort(f.begin(), f.end(), [](const Family& a, const Family& b) { return a.name < b.name; });
    for (std::size_t i = 1; i < f.size(); ++i) {
      if (f[i].name == f[i - 1].name) {
        throw std::logic_error("topology family '" + f[i].name + "' is defined twice");
      }
    }
    return f;
  }();
  return all;
}

}  // namespace collsynth
