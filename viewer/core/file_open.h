// File > Open without a platform file dialog (Dear ImGui 1.86 has none): what the menu's small
// modal lists and what it hands on. A folder's entries (sub-folders first, then the files of the
// kind asked for), a path typed or clicked, and the request the command line can make instead
// (`--open kernel:FILE.cu`, the same state as choosing FILE in the dialog). Plain C++, no ImGui.
#pragma once
#include <optional>
#include <string>
#include <vector>

namespace stencil::viewer {

// What File > Open opens: a student's kernel for the stepper (.cu), or a results file for the
// runs panel (a sweep's results.json, or JSON lines .jsonl).
enum class OpenKind { kernel, results };
const char* to_string(OpenKind k);             // "kernel" | "results"
std::vector<std::string> open_extensions(OpenKind k);  // {".cu"} | {".json", ".jsonl"}

struct FolderEntry {
    std::string name;  // the file or folder name ("..": the parent)
    bool folder = false;
};
struct FolderListing {
    std::string folder;                // absolute, normalised
    std::vector<FolderEntry> entries;  // "..", folders (sorted), then the kind's files (sorted)
    std::string error;                 // why the folder could not be read ("" when it could)
};
// Hidden entries (".name") are left out; a folder that cannot be read gives its reason.
FolderListing list_folder(const std::string& folder, OpenKind kind);

// The path a click on `e` in `folder` gives.
std::string entry_path(const std::string& folder, const FolderEntry& e);

// Why `path` cannot be opened as `kind` (missing, a folder, another extension), or "" when it can.
std::string open_error(const std::string& path, OpenKind kind);

// The command line's form of a choice: "kernel" or "results" (the dialog shown, listing the
// current folder), "kernel:FILE" or "results:FILE" (FILE opened as if chosen in it). nullopt with
// the reason in `why` for anything else.
struct OpenRequest {
    OpenKind kind = OpenKind::kernel;
    std::string path;  // "" : only show the dialog
};
std::optional<OpenRequest> parse_open_request(const std::string& spec, std::string* why);

}  // namespace stencil::viewer
