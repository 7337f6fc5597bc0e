// JSON values as block-style YAML (yaml-cpp's emitter), read as `kubectl get
// -o yaml` prints objects: keys in order, "- " items, strings quoted only
// when a YAML reader could take them for something else ("100m", "true",
// "--root"). Sequences sit two columns under their key, where kubectl puts
// them at the key's column; both read the same. Bytes that are not UTF-8
// print as U+FFFD. For printing the pod spec (--dry-run -o yaml); never
// parsed back here.
#ifndef GPUF_KUBE_YAML_TEXT_H_
#define GPUF_KUBE_YAML_TEXT_H_

#include <nlohmann/json.hpp>

#include <string>

namespace gpuf {

// A whole document, ending in a newline. Objects and arrays that are empty
// print as {} and [].
std::string YamlText(const nlohmann::json& value);

}  // namespace gpuf

#endif  // GPUF_KUBE_YAML_TEXT_H_
