#include "grading/markdown_html.h"

#include <cctype>
#include <sstream>
#include <vector>

namespace stencil::grading {

namespace {

std::string escape(const std::string& s) {
    std::string o;
    for (char c : s) {
        switch (c) {
            case '&': o += "&amp;"; break;
            case '<': o += "&lt;"; break;
            case '>': o += "&gt;"; break;
            case '"': o += "&quot;"; break;
            case '{': o += "&#123;"; break;  // Mustache
            case '}': o += "&#125;"; break;
            default: o += c;
        }
    }
    return o;
}

bool web_link(const std::string& url) { return url.rfind("https://", 0) == 0 || url.rfind("http://", 0) == 0; }

// `code`, **bold**, [text](url); everything else escaped.
std::string inline_html(const std::string& s) {
    std::string o;
    bool bold = false;
    for (size_t i = 0; i < s.size();) {
        if (s[i] == '`') {
            const size_t end = s.find('`', i + 1);
            if (end != std::string::npos) {
                o += "<code>" + escape(s.substr(i + 1, end - i - 1)) + "</code>";
                i = end + 1;
                continue;
            }
        }
        if (s.compare(i, 2, "**") == 0) {
            o += bold ? "</strong>" : "<strong>";
            bold = !bold;
            i += 2;
            continue;
        }
        if (s[i] == '[') {
            const size_t close = s.find("](", i);
            const size_t end = close == std::string::npos ? close : s.find(')', close);
            if (end != std::string::npos) {
                const std::string text = s.substr(i + 1, close - i - 1), url = s.substr(close + 2, end - close - 2);
                o += web_link(url) ? "<a href=\"" + escape(url) + "\">" + inline_html(text) + "</a>" : inline_html(text);
                i = end + 1;
                continue;
            }
        }
        o += escape(std::string(1, s[i]));
        ++i;
    }
    if (bold) o += "</strong>";
    return o;
}

bool blank(const std::string& l) { return l.find_first_not_of(" \t\r") == std::string::npos; }

// "- x", "* x", "12. x": the list's kind ("ul", "ol") and where the item's text starts.
bool list_item(const std::string& l, std::string& kind, size_t& text) {
    size_t i = l.find_first_not_of(' ');
    if (i == std::string::npos || i > 3) return false;
    if ((l[i] == '-' || l[i] == '*') && i + 1 < l.size() && l[i + 1] == ' ') {
        kind = "ul";
        text = i + 2;
        return true;
    }
    size_t d = i;
    while (d < l.size() && std::isdigit(static_cast<unsigned char>(l[d]))) ++d;
    if (d > i && d + 1 < l.size() && l[d] == '.' && l[d + 1] == ' ') {
        kind = "ol";
        text = d + 2;
        return true;
    }
    return false;
}

std::string trim(const std::string& s) {
    const size_t a = s.find_first_not_of(" \t\r");
    if (a == std::string::npos) return "";
    return s.substr(a, s.find_last_not_of(" \t\r") - a + 1);
}

}  // namespace

std::string markdown_to_html(const std::string& markdown) {
    std::vector<std::string> lines;
    std::stringstream ss(markdown);
    for (std::string l; std::getline(ss, l);) lines.push_back(l);
    std::string o, para, list_kind, item;
    const auto end_para = [&] {
        if (!para.empty()) o += "<p>" + inline_html(para) + "</p>\n";
        para.clear();
    };
    const auto end_item = [&] {
        if (!item.empty()) o += "  <li>" + inline_html(item) + "</li>\n";
        item.clear();
    };
    const auto end_list = [&] {
        end_item();
        if (!list_kind.empty()) o += "</" + list_kind + ">\n";
        list_kind.clear();
    };
    for (size_t i = 0; i < lines.size(); ++i) {
        const std::string& l = lines[i];
        std::string kind;
        size_t text = 0;
        if (l.rfind("```", 0) == 0) {
            end_para();
            end_list();
            std::string code;
            for (++i; i < lines.size() && lines[i].rfind("```", 0) != 0; ++i) code += lines[i] + "\n";
            o += "<pre><code>" + escape(code) + "</code></pre>\n";
        } else if (blank(l)) {
            end_para();
            end_list();
        } else if (l[0] == '#') {
            end_para();
            end_list();
            size_t level = l.find_first_not_of('#');
            if (level == std::string::npos) level = l.size();
            const size_t h = std::min<size_t>(level, 6);
            o += "<h" + std::to_string(h) + ">" + inline_html(trim(l.substr(level))) + "</h" + std::to_string(h) + ">\n";
        } else if (list_item(l, kind, text)) {
            end_para();
            if (kind != list_kind) {
                end_list();
                o += "<" + kind + ">\n";
                list_kind = kind;
            }
            end_item();
            item = trim(l.substr(text));
        } else if (!list_kind.empty() && (l[0] == ' ' || l[0] == '\t')) {
            item += " " + trim(l);  // an item's continued line
        } else {
            end_list();
            para += (para.empty() ? "" : " ") + trim(l);
        }
    }
    end_para();
    end_list();
    return o;
}

}  // namespace stencil::grading
