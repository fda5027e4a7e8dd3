// A ZIP archive of a folder, as Gradescope takes an autograder: the files at the archive's root,
// deflated by zlib where that makes them smaller (stored otherwise), Unix permissions kept
// (run_autograder must stay executable), one fixed timestamp (the same folder gives the same
// bytes). Written here rather than by a zip program: a grading box or CI may not have one, and the
// format's subset needed is a page of code.
#pragma once
#include <filesystem>

namespace stencil::grading {

// Every regular file under `folder` (names relative to it, '/'-separated, sorted), into `zip`.
// Throws UserError when a file cannot be read or the archive written, or a file passes 4 GiB.
void write_zip(const std::filesystem::path& folder, const std::filesystem::path& zip);

}  // namespace stencil::grading
