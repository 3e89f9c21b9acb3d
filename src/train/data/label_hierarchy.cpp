#include "geomsim/train/data/label_hierarchy.hpp"

#include <algorithm>
#include <charconv>
#include <cmath>
#include <filesystem>
#include <map>
#include <nlohmann/json.hpp>
#include <numeric>
#include <set>
#include <sstream>

#include "geomsim/support/input_files.hpp"
#include "geomsim/support/atomic_output.hpp"
#include "geomsim/support/errors.hpp"
#include "geomsim/support/json_input.hpp"
#include "geomsim/support/random.hpp"

namespace geomsim::train {
namespace {

// A hierarchy maps each fine label once: a file of 64 MiB maps millions, more than any dataset
// has; a larger file is refused unread.
constexpr std::uint64_t kMaxHierarchyFileBytes = std::uint64_t{64} << 20;
// A "fine,coarse" line has two integers; a longer line is no such pair.
constexpr std::size_t kMaxCsvLine = 256;

const std::vector<std::string> kFashionNames{"T-shirt/top", "Trouser", "Pullover", "Dress", "Coat",
                                             "Sandal",      "Shirt",   "Sneaker",  "Bag",   "Ankle boot"};
const std::vector<std::string> kCifar10Names{"airplane", "automobile", "bird",  "cat",  "deer",
                                             "dog",      "frog",       "horse", "ship", "truck"};
// CIFAR-100's fine labels in label order (the names of its meta file, alphabetical).
const std::vector<std::string> kCifar100Names{
    "apple",       "aquarium_fish", "baby",       "bear",         "beaver",       "bed",        "bee",       "beetle",
    "bicycle",     "bottle",        "bowl",       "boy",          "bridge",       "bus",        "butterfly", "camel",
    "can",         "castle",        "caterpillar", "cattle",      "chair",        "chimpanzee", "clock",     "cloud",
    "cockroach",   "couch",         "crab",       "crocodile",    "cup",          "dinosaur",   "dolphin",   "elephant",
    "flatfish",    "forest",        "fox",        "girl",         "hamster",      "house",      "kangaroo",  "keyboard",
    "lamp",        "lawn_mower",    "leopard",    "lion",         "lizard",       "lobster",    "man",       "maple_tree",
    "motorcycle",  "mountain",      "mouse",      "mushroom",     "oak_tree",     "orange",     "orchid",    "otter",
    "palm_tree",   "pear",          "pickup_truck", "pine_tree",  "plain",        "plate",      "poppy",     "porcupine",
    "possum",      "rabbit",        "raccoon",    "ray",          "road",         "rocket",     "rose",      "sea",
    "seal",        "shark",         "shrew",      "skunk",        "skyscraper",   "snail",      "snake",     "spider",
    "squirrel",    "streetcar",     "sunflower",  "sweet_pepper", "table",        "tank",       "telephone", "television",
    "tiger",       "tractor",       "train",      "trout",        "tulip",        "turtle",     "wardrobe",  "whale",
    "willow_tree", "wolf",          "woman",      "worm"};
// CIFAR-100's superclasses in coarse-label order, each with its five classes, as the data set's
// page lists them (https://www.cs.toronto.edu/~kriz/cifar.html).
const std::vector<std::pair<std::string, std::vector<std::string>>> kCifar100Superclasses{
    {"aquatic_mammals", {"beaver", "dolphin", "otter", "seal", "whale"}},
    {"fish", {"aquarium_fish", "flatfish", "ray", "shark", "trout"}},
    {"flowers", {"orchid", "poppy", "rose", "sunflower", "tulip"}},
    {"food_containers", {"bottle", "bowl", "can", "cup", "plate"}},
    {"fruit_and_vegetables", {"apple", "mushroom", "orange", "pear", "sweet_pepper"}},
    {"household_electrical_devices", {"clock", "keyboard", "lamp", "telephone", "television"}},
    {"household_furniture", {"bed", "chair", "couch", "table", "wardrobe"}},
    {"insects", {"bee", "beetle", "butterfly", "caterpillar", "cockroach"}},
    {"large_carnivores", {"bear", "leopard", "lion", "tiger", "wolf"}},
    {"large_man-made_outdoor_things", {"bridge", "castle", "house", "road", "skyscraper"}},
    {"large_natural_outdoor_scenes", {"cloud", "forest", "mountain", "plain", "sea"}},
    {"large_omnivores_and_herbivores", {"camel", "cattle", "chimpanzee", "elephant", "kangaroo"}},
    {"medium_mammals", {"fox", "porcupine", "possum", "raccoon", "skunk"}},
    {"non-insect_invertebrates", {"crab", "lobster", "snail", "spider", "worm"}},
    {"people", {"baby", "boy", "girl", "man", "woman"}},
    {"reptiles", {"crocodile", "dinosaur", "lizard", "snake", "turtle"}},
    {"small_mammals", {"hamster", "mouse", "rabbit", "shrew", "squirrel"}},
    {"trees", {"maple_tree", "oak_tree", "palm_tree", "pine_tree", "willow_tree"}},
    {"vehicles_1", {"bicycle", "bus", "motorcycle", "pickup_truck", "train"}},
    {"vehicles_2", {"lawn_mower", "rocket", "streetcar", "tank", "tractor"}}};

std::vector<std::string> numbered(int count) {
  std::vector<std::string> names;
  for (int k = 0; k < count; ++k) names.push_back(std::to_string(k));
  return names;
}

// A built-in from (fine name, coarse name) groups: coarse ids in the order of `groups`.
LabelHierarchy from_groups(const std::string& name, const std::string& dataset, const std::vector<std::string>& fine_names,
                           const std::vector<std::pair<std::string, std::vector<std::string>>>& groups) {
  LabelHierarchy h;
  h.name = name;
  h.dataset = dataset;
  h.fine_names = fine_names;
  h.coarse_of_fine.assign(fine_names.size(), -1);
  for (std::size_t c = 0; c < groups.size(); ++c) {
    h.coarse_names.push_back(groups[c].first);
    for (const auto& fine : groups[c].second) {
      const auto at = std::find(fine_names.begin(), fine_names.end(), fine);
      if (at == fine_names.end() || h.coarse_of_fine[static_cast<std::size_t>(at - fine_names.begin())] != -1) {
        throw std::logic_error("built-in hierarchy " + name + ": '" + fine + "' is unknown or grouped twice");
      }
      h.coarse_of_fine[static_cast<std::size_t>(at - fine_names.begin())] = static_cast<int>(c);
    }
  }
  if (std::count(h.coarse_of_fine.begin(), h.coarse_of_fine.end(), -1) != 0) {
    throw std::logic_error("built-in hierarchy " + name + " leaves a fine label out");
  }
  h.keep_fraction.assign(fine_names.size(), 1.0);
  return h;
}

std::string list(const std::vector<std::string>& names) {
  std::string out;
  for (const auto& n : names) out += (out.empty() ? "" : ", ") + n;
  return out;
}

// A non-negative integer, the whole of `text` (no sign, no spaces, no fraction).
bool parse_label(const std::string& text, long long& value) {
  if (text.empty() || text.front() == '+' || text.front() == '-') return false;
  const auto [end, error] = std::from_chars(text.data(), text.data() + text.size(), value);
  return error == std::errc() && end == text.data() + text.size();
}

std::string trim(const std::string& s) {
  const auto first = s.find_first_not_of(" \t\r");
  if (first == std::string::npos) return "";
  return s.substr(first, s.find_last_not_of(" \t\r") - first + 1);
}

// fine -> coarse pairs as read, each with where it came from ("line 3", "key \"4\""), checked for
// duplicates and gaps, into coarse_of_fine.
struct Entry {
  long long fine = 0, coarse = 0;
  std::string where;
};
std::vector<int> mapping_from_entries(const std::vector<Entry>& entries, const std::string& path, const std::string& argument) {
  const auto fail = [&](const std::string& why) { throw InvalidArgument(argument, path + ": " + why); };
  if (entries.empty()) fail("maps no fine label");
  std::map<long long, const Entry*> seen;
  for (const auto& e : entries) {
    if (e.coarse < 0 || e.coarse > std::numeric_limits<int>::max()) fail(e.where + ": coarse label " + std::to_string(e.coarse) + " is not an int >= 0");
    const auto [at, fresh] = seen.emplace(e.fine, &e);
    if (!fresh) fail("fine label " + std::to_string(e.fine) + " is mapped twice (" + at->second->where + " and " + e.where + ")");
  }
  // Fine labels must be 0..F-1: with every key distinct, the largest is F-1 exactly when none is missing.
  long long expected = 0;
  for (const auto& [fine, entry] : seen) {
    if (fine != expected) fail("fine label " + std::to_string(expected) + " is not mapped (fine labels must be 0.." + std::to_string(seen.size() - 1) + ", each mapped once; found " + std::to_string(fine) + ")");
    ++expected;
  }
  std::vector<int> coarse_of_fine;
  for (const auto& [fine, entry] : seen) coarse_of_fine.push_back(static_cast<int>(entry->coarse));
  return coarse_of_fine;
}

std::vector<Entry> read_csv_entries(const std::string& text, const std::string& path, const std::string& argument) {
  std::vector<Entry> entries;
  // Line by line in place (no copy of the text, whatever its size), each line refused or taken
  // as it comes: a file that is not such a CSV stops at its first line.
  std::size_t start = 0;
  for (int number = 1; start < text.size(); ++number) {
    const std::size_t end = std::min(text.find('\n', start), text.size());
    const std::size_t length = end - start;
    if (length > kMaxCsvLine) {
      throw InvalidArgument(argument, path + ": line " + std::to_string(number) + " holds " + std::to_string(length) +
                                          " bytes, not 'fine,coarse' (two integers >= 0)");
    }
    const std::string line = trim(text.substr(start, length));
    start = end + 1;
    if (line.empty()) continue;
    std::string lower = line;
    std::transform(lower.begin(), lower.end(), lower.begin(), [](unsigned char c) { return static_cast<char>(std::tolower(c)); });
    if (entries.empty() && (lower == "fine,coarse" || lower == "fine, coarse")) continue;  // the header
    const auto comma = line.find(',');
    Entry e;
    e.where = "line " + std::to_string(number);
    if (comma == std::string::npos || line.find(',', comma + 1) != std::string::npos ||
        !parse_label(trim(line.substr(0, comma)), e.fine) || !parse_label(trim(line.substr(comma + 1)), e.coarse)) {
      throw InvalidArgument(argument, path + ": line " + std::to_string(number) + " '" + line.substr(0, 60) +
                                          "' is not 'fine,coarse' (two integers >= 0)");
    }
    entries.push_back(e);
  }
  return entries;
}

std::vector<std::string> json_names(const nlohmann::json& doc, const char* key, std::size_t count, const std::string& path,
                                    const std::string& argument) {
  if (!doc.contains(key)) return {};
  const auto& names = doc.at(key);
  if (!names.is_array() || names.size() != count ||
      !std::all_of(names.begin(), names.end(), [](const nlohmann::json& n) { return n.is_string(); })) {
    throw InvalidArgument(argument, path + ": \"" + key + "\" must be an array of " + std::to_string(count) + " strings");
  }
  return names.get<std::vector<std::string>>();
}

LabelHierarchy read_json_hierarchy(const std::string& text, const std::string& path, const std::string& argument) {
  const auto fail = [&](const std::string& why) { throw InvalidArgument(argument, path + ": " + why); };
  // nlohmann keeps the last of two equal keys silently; a fine label given twice must be refused.
  std::vector<std::set<std::string>> open_objects;
  std::string duplicate;
  const nlohmann::json::parser_callback_t watch_keys = [&](int, nlohmann::json::parse_event_t event, nlohmann::json& parsed) {
    if (event == nlohmann::json::parse_event_t::object_start) open_objects.emplace_back();
    if (event == nlohmann::json::parse_event_t::object_end && !open_objects.empty()) open_objects.pop_back();
    if (event == nlohmann::json::parse_event_t::key && !open_objects.empty() && !open_objects.back().insert(parsed.get<std::string>()).second &&
        duplicate.empty()) {
      duplicate = parsed.get<std::string>();
    }
    return true;
  };
  const nlohmann::json doc = parse_json_input(text, argument, path + ":", watch_keys);
  if (!duplicate.empty()) fail("key \"" + duplicate + "\" appears twice (every fine label is mapped once)");
  if (!doc.is_object()) fail("must hold a JSON object (fine label -> coarse label)");
  const bool wrapped = doc.contains("fine_to_coarse");
  if (wrapped) {
    for (const auto& [key, value] : doc.items()) {
      if (key != "fine_to_coarse" && key != "coarse_names" && key != "fine_names") {
        fail("unknown key \"" + key + "\" (allowed: fine_to_coarse, coarse_names, fine_names)");
      }
    }
  }
  const nlohmann::json& mapping = wrapped ? doc.at("fine_to_coarse") : doc;
  std::vector<Entry> entries;
  const auto coarse_value = [&](const nlohmann::json& v, const std::string& where) {
    if (!v.is_number_integer()) fail(where + ": the coarse label must be an integer >= 0, got " + json_excerpt(v));
    Entry e;
    e.coarse = v.is_number_unsigned() ? static_cast<long long>(std::min<std::uint64_t>(v.get<std::uint64_t>(), std::uint64_t{1} << 62))
                                      : v.get<long long>();
    e.where = where;
    return e;
  };
  if (mapping.is_array()) {
    for (std::size_t k = 0; k < mapping.size(); ++k) {
      Entry e = coarse_value(mapping[k], "fine_to_coarse[" + std::to_string(k) + "]");
      e.fine = static_cast<long long>(k);
      entries.push_back(e);
    }
  } else if (mapping.is_object()) {
    for (const auto& [key, value] : mapping.items()) {
      Entry e = coarse_value(value, "key \"" + key + "\"");
      if (!parse_label(key, e.fine)) fail("key \"" + key + "\" is not a fine label (an integer >= 0)");
      entries.push_back(e);
    }
  } else {
    fail("\"fine_to_coarse\" must be an object or an array");
  }
  LabelHierarchy h = hierarchy_from_mapping(path, mapping_from_entries(entries, path, argument), argument);
  if (wrapped) {
    if (auto names = json_names(doc, "coarse_names", h.coarse_names.size(), path, argument); !names.empty()) h.coarse_names = names;
    if (auto names = json_names(doc, "fine_names", h.fine_names.size(), path, argument); !names.empty()) h.fine_names = names;
  }
  return h;
}

}  // namespace

std::vector<std::vector<int>> LabelHierarchy::fine_of_coarse() const {
  std::vector<std::vector<int>> out(static_cast<std::size_t>(num_coarse()));
  for (int fine = 0; fine < num_fine(); ++fine) out[static_cast<std::size_t>(coarse_of_fine[static_cast<std::size_t>(fine)])].push_back(fine);
  return out;
}

std::vector<std::string> builtin_hierarchy_names() {
  return {"fmnist-2", "fmnist-4", "fmnist-4-imbalanced", "fmnist-pairs", "identity", "cifar10-2", "cifar100-20"};
}

LabelHierarchy builtin_hierarchy(const std::string& name) {
  const auto& f = kFashionNames;
  if (name == "fmnist-2") {
    return from_groups(name, "fashion-mnist", f,
                       {{"clothing", {f[0], f[1], f[2], f[3], f[4], f[6]}}, {"shoes and bags", {f[5], f[7], f[8], f[9]}}});
  }
  if (name == "fmnist-4" || name == "fmnist-4-imbalanced") {
    LabelHierarchy h = from_groups(name, "fashion-mnist", f,
                                   {{"tops", {f[0], f[2], f[4], f[6]}}, {"bottoms and dresses", {f[1], f[3]}},
                                    {"footwear", {f[5], f[7], f[9]}}, {"bags", {f[8]}}});
    if (name == "fmnist-4-imbalanced") {
      std::vector<bool> first_seen(4, false);
      for (int fine = 0; fine < 10; ++fine) {
        const int coarse = h.coarse_of_fine[static_cast<std::size_t>(fine)];
        h.keep_fraction[static_cast<std::size_t>(fine)] = first_seen[static_cast<std::size_t>(coarse)] ? 0.2 : 1.0;
        first_seen[static_cast<std::size_t>(coarse)] = true;
      }
    }
    return h;
  }
  if (name == "fmnist-pairs") {
    return from_groups(name, "fashion-mnist", f,
                       {{"T-shirt/top or Shirt", {f[0], f[6]}}, {"Trouser or Dress", {f[1], f[3]}},
                        {"Pullover or Coat", {f[2], f[4]}}, {"Sandal or Sneaker", {f[5], f[7]}}, {"Bag or Ankle boot", {f[8], f[9]}}});
  }
  if (name == "identity") {
    LabelHierarchy h = hierarchy_from_mapping(name, {0, 1, 2, 3, 4, 5, 6, 7, 8, 9}, "hierarchy");
    h.name = name;
    return h;
  }
  if (name == "cifar10-2") {
    const auto& c = kCifar10Names;
    return from_groups(name, "cifar-10", c, {{"vehicles", {c[0], c[1], c[8], c[9]}}, {"animals", {c[2], c[3], c[4], c[5], c[6], c[7]}}});
  }
  if (name == "cifar100-20") return from_groups(name, "cifar-100", kCifar100Names, kCifar100Superclasses);
  throw InvalidArgument("hierarchy", "must be one of " + list(builtin_hierarchy_names()) + ", or a hierarchy file (JSON or CSV); got '" +
                                         name + "'");
}

LabelHierarchy hierarchy_from_mapping(const std::string& name, const std::vector<int>& coarse_of_fine, const std::string& argument) {
  if (coarse_of_fine.empty()) throw InvalidArgument(argument, name + ": maps no fine label");
  const int top = *std::max_element(coarse_of_fine.begin(), coarse_of_fine.end());
  for (std::size_t fine = 0; fine < coarse_of_fine.size(); ++fine) {
    if (coarse_of_fine[fine] < 0) {
      throw InvalidArgument(argument, name + ": fine label " + std::to_string(fine) + " has coarse label " +
                                          std::to_string(coarse_of_fine[fine]) + "; coarse labels are integers >= 0");
    }
  }
  // The distinct coarse ids, sorted, must be exactly 0..C-1 (no allocation by the largest id).
  std::set<int> used(coarse_of_fine.begin(), coarse_of_fine.end());
  int expected = 0;
  for (int c : used) {
    if (c != expected) {
      throw InvalidArgument(argument, name + ": coarse ids must be contiguous from 0, but " + std::to_string(expected) + " is unused (the largest is " +
                                          std::to_string(top) + ")");
    }
    ++expected;
  }
  LabelHierarchy h;
  h.name = name;
  h.coarse_of_fine = coarse_of_fine;
  h.fine_names = numbered(static_cast<int>(coarse_of_fine.size()));
  h.coarse_names = numbered(top + 1);
  h.keep_fraction.assign(coarse_of_fine.size(), 1.0);
  return h;
}

LabelHierarchy read_hierarchy_file(const std::string& path, const std::string& argument) {
  const std::string text = read_whole_file(path, argument, kMaxHierarchyFileBytes, "hierarchy file");
  const auto first = text.find_first_not_of(" \t\r\n");
  if (first == std::string::npos) throw InvalidArgument(argument, path + ": is empty");
  if (text[first] == '{' || text[first] == '[') return read_json_hierarchy(text, path, argument);
  return hierarchy_from_mapping(path, mapping_from_entries(read_csv_entries(text, path, argument), path, argument), argument);
}

LabelHierarchy resolve_hierarchy(const std::string& name_or_path, const std::string& argument) {
  const auto names = builtin_hierarchy_names();
  if (std::find(names.begin(), names.end(), name_or_path) != names.end()) return builtin_hierarchy(name_or_path);
  std::error_code error;
  if (!name_or_path.empty() && std::filesystem::is_regular_file(name_or_path, error)) return read_hierarchy_file(name_or_path, argument);
  throw InvalidArgument(argument, "must be one of " + list(names) + ", or a hierarchy file (JSON or CSV); got '" + name_or_path +
                                      "', which is neither");
}

std::vector<int> coarse_labels(const LabelHierarchy& h, const std::vector<int>& fine_labels) {
  std::vector<int> out;
  out.reserve(fine_labels.size());
  for (int fine : fine_labels) {
    if (fine < 0 || fine >= h.num_fine()) {
      throw InvalidArgument("labels", "fine label " + std::to_string(fine) + " is outside 0.." + std::to_string(h.num_fine() - 1));
    }
    out.push_back(h.coarse_of_fine[static_cast<std::size_t>(fine)]);
  }
  return out;
}

std::vector<std::size_t> kept_indices(const LabelHierarchy& h, const std::vector<int>& fine_labels, std::uint64_t seed) {
  coarse_labels(h, fine_labels);  // validates the labels
  std::vector<std::vector<std::size_t>> by_fine(static_cast<std::size_t>(h.num_fine()));
  for (std::size_t i = 0; i < fine_labels.size(); ++i) by_fine[static_cast<std::size_t>(fine_labels[i])].push_back(i);
  Rng rng(seed);
  std::vector<std::size_t> kept;
  for (std::size_t fine = 0; fine < by_fine.size(); ++fine) {
    auto& idx = by_fine[fine];
    rng.shuffle(idx);
    const auto keep = static_cast<std::size_t>(std::llround(h.keep_fraction[fine] * static_cast<double>(idx.size())));
    kept.insert(kept.end(), idx.begin(), idx.begin() + static_cast<std::ptrdiff_t>(keep));
  }
  std::sort(kept.begin(), kept.end());
  return kept;
}

}  // namespace geomsim::train
