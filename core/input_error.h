// InputError: the one exception type for bad user input. It names the file (or "<expr>",
// "<stdin>", "<args>"), the item within it (a node, a link, a JSON path, a line) and what is
// wrong. The CLI turns it into exit code 2 and a single line "collsynth: FILE: ITEM: PROBLEM".
#ifndef COLLSYNTH_CORE_INPUT_ERROR_H_
#define COLLSYNTH_CORE_INPUT_ERROR_H_

#include <cstddef>
#include <stdexcept>
#include <string>

namespace collsynth {

class InputError : public std::runtime_error {
 public:
  InputError(std::string file, std::string item, std::string problem)
      : std::runtime_error(Compose(file, item, problem)),
        file_(std::move(file)),
        item_(std::move(item)),
        problem_(std::move(problem)) {}

  const std::string& file() const { return file_; }
  const std::string& item() const { return item_; }
  const std::string& problem() const { return problem_; }

 private:
  static std::string Compose(const std::string& f, const std::string& i, const std::string& p) {
    std::string s = f.empty() ? std::string("<input>") : f;
    if (!i.empty()) s += ": " + i;
    return s + ": " + p;
  }
  std::string file_, item_, problem_;
};

// `s` for an error message: at most 40 bytes of it (cut at a UTF-8 character boundary) and
// its length, so that a name or number of any size gives a short message.
inline std::string Abbreviated(const std::string& s) {
  constexpr std::size_t kShown = 40;
  if (s.size() <= kShown) return s;
  std::size_t cut = kShown;
  while (cut > 0 && (static_cast<unsigned char>(s[cut]) & 0xc0) == 0x80) --cut;
  return s.substr(0, cut) + "... (" + std::to_string(s.size()) + " bytes)";
}

}  // namespace collsynth

#endif  // COLLSYNTH_CORE_INPUT_ERROR_H_
