// The catalog's files as they were when the build was configured
// (messages/CMakeLists.txt writes catalog_files.cpp from them).
#pragma once

#include <span>
#include <string_view>

namespace warpdrill::messages::detail {

struct CatalogFile {
    std::string_view name;  // "runner.toml"
    std::string_view text;
};

std::span<const CatalogFile> catalog_files();

}  // namespace warpdrill::messages::detail
