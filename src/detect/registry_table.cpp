#include "detect/registry_table.h"

#include <fmt/format.h>
#include <string>

#include "containers/container_registry.h"
#include "formats/registry.h"

namespace animdex {

ResultTable registered_kinds() {
  ResultTable table{{"format", "kind", "description"}, {}};
  for (const auto& format : registered_formats())
    table.rows.push_back({std::string(format.id), std::string("animation"), std::string(format.description)});
  for (const auto& container : registered_containers()) {
    table.rows.push_back({std::string(container.id), std::string("container"), std::string(container.description)});
    if (!container.companion_format.empty())
      table.rows.push_back({std::string(container.companion_format), std::string("container"),
                            fmt::format("the data file of {}: recorded, not parsed; its entries are {}'s members",
                                        container.id, container.id)});
  }
  for (const Codec* codec : registered_codecs())
    table.rows.push_back({std::string(codec->id), std::string("compression"), std::string(codec->description)});
  return table;
}

}  // namespace animdex
