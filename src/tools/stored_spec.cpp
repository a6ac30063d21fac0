#include "stored_spec.h"

#include <jansson.h>

namespace easypp::tools {

std::optional<std::string> stored_spec(const std::string& path) {
  json_error_t error;
  json_t* doc = json_load_file(path.c_str(), 0, &error);
  if (doc == nullptr) return std::nullopt;
  std::optional<std::string> spec;
  const json_t* value = json_object_get(doc, "spec");
  if (json_is_string(value)) spec = json_string_value(value);
  json_decref(doc);
  return spec;
}

}  // namespace easypp::tools
