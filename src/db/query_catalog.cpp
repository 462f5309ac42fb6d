#include "db/query_catalog.h"

#include <algorithm>
#include <cctype>
#include <cstdlib>
#include <fstream>
#include <optional>
#include <sstream>
#include <stdexcept>
#include <fmt/format.h>

#include "containers/container_registry.h"
#include "formats/registry.h"
#include "core/embedded.h"
#include "core/nearest_names.h"
#include "core/text.h"
#include "reference/reference_data.h"

namespace animdex {

namespace {

std::optional<ParameterType> parse_type(std::string_view word) {
  if (word == "int") return ParameterType::integer;
  if (word == "real") return ParameterType::real;
  if (word == "text") return ParameterType::text;
  if (word == "int|text") return ParameterType::integer_or_text;
  return std::nullopt;
}

QueryParameter parse_parameter(std::string_view query_name, std::string_view spec) {
  QueryParameter parameter;
  spec = trim_blanks(spec);
  const auto name_end = spec.find_first_of(" \t=");
  parameter.name = std::string(spec.substr(0, name_end));
  std::string_view rest = name_end == std::string_view::npos ? std::string_view() : trim_blanks(spec.substr(name_end));
  const auto type_end = rest.find_first_of(" \t=");
  const auto type = parse_type(rest.substr(0, type_end));
  if (!type)
    throw std::logic_error(fmt::format("query '{}': parameter '{}' needs a type (int, real, text or int|text) after its name",
                                       query_name, parameter.name));
  parameter.type = *type;
  rest = type_end == std::string_view::npos ? std::string_view() : trim_blanks(rest.substr(type_end));
  if (!rest.empty() && rest.front() == '=') {
    rest = trim_blanks(rest.substr(1));
    const auto value_end = rest.find_first_of(" \t");
    parameter.default_value = std::string(rest.substr(0, value_end));
    rest = value_end == std::string_view::npos ? std::string_view() : trim_blanks(rest.substr(value_end));
  }
  parameter.description = std::string(rest);
  return parameter;
}

// "nsbca, nsbva" or "nsbca nsbva" -> {nsbca, nsbva}
std::vector<std::string> words_of(std::string_view text) {
  std::vector<std::string> words;
  std::string word;
  for (const char c : std::string(text) + " ") {
    if (c == ',' || c == ' ' || c == '\t') {
      if (!word.empty()) words.push_back(std::move(word));
      word.clear();
    } else {
      word += c;
    }
  }
  return words;
}

// The `-- formats:` words, each a format or container id animdex knows (`animdex formats`); a
// misspelt one would narrow every value check to nothing.
std::vector<std::string> checked_formats(std::string_view query_name, std::string_view text) {
  auto formats = words_of(text);
  for (auto& format : formats) {
    format = lowercase_ascii(format);
    if (!find_format(format) && !find_container(format))
      throw QueryUsageError(fmt::format("query '{}': -- formats: names '{}', which is no format animdex knows "
                                        "(`animdex formats` lists them)",
                                        query_name, format));
  }
  return formats;
}

}  // namespace

NamedQuery parse_named_query(std::string_view name, std::string_view text) {
  NamedQuery query;
  query.name = std::string(name);
  query.sql = std::string(text);
  std::size_t start = 0;
  while (start < text.size()) {
    auto end = text.find('\n', start);
    if (end == std::string_view::npos) end = text.size();
    const std::string_view line = trim_blanks(text.substr(start, end - start));
    start = end + 1;
    if (line.rfind("--", 0) != 0) {
      if (line.empty()) continue;
      break;  // the header ends at the first SQL line
    }
    const std::string_view comment = trim_blanks(line.substr(2));
    if (comment.rfind("description:", 0) == 0) query.description = std::string(trim_blanks(comment.substr(12)));
    else if (comment.rfind("param:", 0) == 0) query.parameters.push_back(parse_parameter(name, comment.substr(6)));
    else if (comment.rfind("example:", 0) == 0) query.example = std::string(trim_blanks(comment.substr(8)));
    else if (comment.rfind("formats:", 0) == 0) query.formats = checked_formats(name, comment.substr(8));
  }
  return query;
}

const std::vector<NamedQuery>& named_queries() {
  static const std::vector<NamedQuery> queries = [] {
    std::vector<NamedQuery> loaded;
    for (const auto& file : embedded_files()) {
      // queries/NAME.sql, and a format's own src/formats/FORMAT/queries/NAME.sql
      const std::string_view path = file.path;
      const auto folder = path.rfind("queries/");
      const bool in_queries = folder == 0 || (path.starts_with("src/formats/") && folder != std::string_view::npos);
      if (!in_queries || !path.ends_with(".sql")) continue;
      const auto name = path.substr(folder + 8, path.size() - folder - 12);
      if (name.empty() || name.find('/') != std::string_view::npos) continue;
      loaded.push_back(parse_named_query(name, file.content));
    }
    std::sort(loaded.begin(), loaded.end(), [](const auto& a, const auto& b) { return a.name < b.name; });
    return loaded;
  }();
  return queries;
}

const NamedQuery* find_named_query(std::string_view name) {
  for (const auto& query : named_queries())
    if (query.name == name) return &query;
  return nullptr;
}

NamedQuery load_query_file(const std::filesystem::path& path) {
  constexpr std::uintmax_t kMaxQueryFile = 1 << 20;
  std::error_code error;
  if (!std::filesystem::is_regular_file(path, error))
    throw QueryUsageError(fmt::format("{}: not a query file (no such regular file)", path.string()));
  if (std::filesystem::file_size(path, error) > kMaxQueryFile)
    throw QueryUsageError(fmt::format("{}: larger than 1 MiB; a query file holds SQL, not data", path.string()));
  std::ifstream in(path, std::ios::binary);
  std::stringstream text;
  text << in.rdbuf();
  if (!in) throw QueryUsageError(fmt::format("{}: cannot be read", path.string()));
  try {
    auto query = parse_named_query(path.stem().string(), text.str());
    query.source = path.string();
    return query;
  } catch (const std::logic_error& malformed) {
    throw QueryUsageError(fmt::format("{}: {}", path.string(), malformed.what()));
  }
}

std::vector<NamedQuery> query_catalogue(const std::vector<std::filesystem::path>& folders) {
  std::vector<NamedQuery> catalogue = named_queries();
  for (const auto& folder : folders) {
    std::error_code error;
    if (!std::filesystem::is_directory(folder, error))
      throw QueryUsageError(fmt::format("--queries {}: not a folder", folder.string()));
    std::vector<std::filesystem::path> files;
    for (const auto& entry : std::filesystem::directory_iterator(folder, error))
      if (entry.path().extension() == ".sql") files.push_back(entry.path());
    std::sort(files.begin(), files.end());
    for (const auto& file : files) {
      auto query = load_query_file(file);
      const auto taken = std::find_if(catalogue.begin(), catalogue.end(),
                                      [&](const NamedQuery& known) { return known.name == query.name; });
      if (taken != catalogue.end())
        throw QueryUsageError(fmt::format("{}: the query name '{}' is taken ({}); rename the file", file.string(),
                                          query.name, taken->source));
      catalogue.push_back(std::move(query));
    }
  }
  std::sort(catalogue.begin(), catalogue.end(), [](const auto& a, const auto& b) { return a.name < b.name; });
  return catalogue;
}

std::vector<std::filesystem::path> query_folders_from_environment() {
  std::vector<std::filesystem::path> folders;
  const char* value = std::getenv("ANIMDEX_QUERIES");
  for (std::string_view rest = value ? value : ""; !rest.empty();) {
    const auto colon = rest.find(':');
    const auto folder = rest.substr(0, colon);
    if (!folder.empty()) folders.emplace_back(folder);
    rest = colon == std::string_view::npos ? std::string_view() : rest.substr(colon + 1);
  }
  return folders;
}

std::string example_command(const NamedQuery& query) {
  std::string command = fmt::format("animdex query {} --db animdex.db", query.name);
  if (!query.example.empty()) return command + " " + query.example;
  for (const auto& parameter : query.parameters)
    if (parameter.required())
      command += fmt::format(" -p {} {}", parameter.name, parameter.type == ParameterType::integer ? "0x76" : "VALUE");
  return command;
}

std::string_view parameter_type_name(ParameterType type) {
  switch (type) {
    case ParameterType::integer: return "int";
    case ParameterType::real: return "real";
    case ParameterType::text: return "text";
    case ParameterType::integer_or_text: return "int|text";
  }
  return "text";
}

namespace {

Cell convert(const NamedQuery& query, const QueryParameter& parameter, const std::string& text) {
  switch (parameter.type) {
    case ParameterType::integer:
      if (auto value = parse_integer(text)) return *value;
      throw QueryUsageError(fmt::format("query '{}': -p {} expects an integer (decimal or 0x-hex), got '{}'",
                                        query.name, parameter.name, text));
    case ParameterType::real:
      if (auto value = parse_finite_real(text)) return *value;
      throw QueryUsageError(
          fmt::format("query '{}': -p {} expects a number, got '{}'", query.name, parameter.name, text));
    case ParameterType::integer_or_text:
      if (auto value = parse_integer(text)) return *value;
      break;
    case ParameterType::text: break;
  }
  return text;
}

std::string declared_names(const NamedQuery& query) {
  std::string names;
  for (const auto& parameter : query.parameters) names += (names.empty() ? "" : ", ") + parameter.name;
  return names.empty() ? "none" : names;
}

}  // namespace

Parameters bind_parameters(const NamedQuery& query, const Bindings& given) {
  for (const auto& [name, value] : given) {
    const bool declared = std::any_of(query.parameters.begin(), query.parameters.end(),
                                      [&](const QueryParameter& parameter) { return parameter.name == name; });
    if (!declared) {
      std::vector<std::string> names;
      for (const auto& parameter : query.parameters) names.push_back(parameter.name);
      throw QueryUsageError(fmt::format("query '{}' has no parameter '{}'{} (it takes: {})", query.name, name,
                                        nearest_hint(name, names), declared_names(query)));
    }
  }
  Parameters parameters;
  for (const auto& parameter : query.parameters) {
    auto value = std::find_if(given.begin(), given.end(), [&](const auto& pair) { return pair.first == parameter.name; });
    // NULL means "all" for an optional filter (one whose default is NULL), as its help says.
    if (value != given.end() && value->second == "NULL" && parameter.default_value == "NULL")
      parameters.emplace_back(parameter.name, std::monostate{});
    else if (value != given.end()) parameters.emplace_back(parameter.name, convert(query, parameter, value->second));
    else if (parameter.default_value == "NULL") parameters.emplace_back(parameter.name, std::monostate{});
    else if (parameter.default_value) parameters.emplace_back(parameter.name, convert(query, parameter, *parameter.default_value));
    else
      throw QueryUsageError(fmt::format("query '{}' needs -p {} VALUE ({})", query.name, parameter.name,
                                        parameter.description));
  }
  return parameters;
}

}  // namespace animdex
