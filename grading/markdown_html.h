// An exercise's statement (its README.md) as HTML for PrairieLearn's question.html: the small part
// of Markdown the statements use (headings, paragraphs, lists with continued lines, fenced code,
// `code`, **bold**, links). A link to another file of the lab is kept as its text only: the
// question does not ship the handouts. '{' and '}' are written as entities, since PrairieLearn
// reads question.html as a Mustache template.
#pragma once
#include <string>

namespace stencil::grading {

std::string markdown_to_html(const std::string& markdown);

}  // namespace stencil::grading
