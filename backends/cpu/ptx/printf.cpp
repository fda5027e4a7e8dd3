// Device printf (vprintf(format, args)) and assert (__assertfail): the format's conversions read
// the argument buffer NVRTC packs (each argument aligned to its size; a `*` width or precision is
// an int of its own before the value), formatted on the host into the launch's capped sink.
#include <algorithm>
#include <bit>
#include <cstdio>
#include <cstring>

#include <fmt/format.h>

#include "backends/cpu/ptx/block.h"

namespace ptx::detail {

namespace {

// The conversions a format reads (%% reads none; a `*` reads one more): what device printf
// returns when nothing is formatted.
int count_conversions(const std::string& fmt_text) {
    int converted = 0;
    for (size_t i = 0; i + 1 < fmt_text.size(); ++i) {
        if (fmt_text[i] != '%') continue;
        if (fmt_text[i + 1] == '%') {
            ++i;
            continue;
        }
        ++converted;
        for (size_t j = i + 1; j < fmt_text.size() && std::strchr("-+ #0123456789.*", fmt_text[j]); ++j)
            if (fmt_text[j] == '*') ++converted;
    }
    return converted;
}

}  // namespace

bool BlockRunner::read_string(Thread& t, const Instr& in, u64 addr, std::string& out) {
    for (int i = 0; i < 4096; ++i) {
        char c;
        if (!access<false>(t, in, Sp::generic, addr + (u64)i, 1, &c)) return false;
        if (!c) return true;
        out.push_back(c);
    }
    return true;
}

void BlockRunner::do_printf(Group& g, Thread& t, const Instr& in) {
    const CallList& cl = g.f->call_lists[(size_t)in.call_args];
    if (cl.args.size() < 2) return;
    std::string fmt_text;
    if (!read_string(t, in, call_param(g, t, in, 0), fmt_text)) return;
    std::string out;
    int converted = 0;  // device printf returns the number of arguments it read
    if (!L_.launch.printf_output || L_.printf_full.load(std::memory_order_relaxed)) {
        converted = count_conversions(fmt_text);
        fmt_text.clear();  // nothing to format: only the return value is written below
    }
    if (!format_printf(t, in, fmt_text, call_param(g, t, in, 1), out, converted)) return;
    if (cl.retval_offset >= 0) {
        const std::int32_t n = converted;
        std::memcpy(t.params.data() + g.param_base + cl.retval_offset, &n, (size_t)std::min(4, cl.retval_bytes));
    }
    if (L_.launch.printf_output) append_printf_output(out);
}

// The format's text with each conversion filled from the packed argument buffer at `args`. False:
// a read faulted (the diagnostic is made).
bool BlockRunner::format_printf(Thread& t, const Instr& in, const std::string& fmt_text, u64 args, std::string& out,
                                int& converted) {
    // the next argument of `bytes` bytes, aligned to its size
    auto next_arg = [&](int bytes, u64& v) {
        args = (args + (u64)bytes - 1) / (u64)bytes * (u64)bytes;
        v = 0;
        if (!access<false>(t, in, Sp::generic, args, bytes, &v)) return false;
        args += (u64)bytes;
        ++converted;
        return true;
    };
    for (size_t i = 0; i < fmt_text.size(); ++i) {
        if (fmt_text[i] != '%') {
            out.push_back(fmt_text[i]);
            continue;
        }
        if (i + 1 < fmt_text.size() && fmt_text[i + 1] == '%') {
            out.push_back('%');
            ++i;
            continue;
        }
        // %[flags][width][.precision][length]conversion; a `*` width or precision is an int argument
        std::string spec = "%";
        size_t j = i + 1;
        while (j < fmt_text.size() && std::strchr("-+ #0", fmt_text[j])) spec.push_back(fmt_text[j++]);
        if (j < fmt_text.size() && fmt_text[j] == '*') {
            u64 w = 0;
            if (!next_arg(4, w)) return false;
            const int width = std::int32_t(w);
            spec += width < 0 ? fmt::format("-{}", -(long long)width) : std::to_string(width);
            ++j;
        } else {
            while (j < fmt_text.size() && std::isdigit((unsigned char)fmt_text[j])) spec.push_back(fmt_text[j++]);
        }
        if (j < fmt_text.size() && fmt_text[j] == '.') {
            ++j;
            if (j < fmt_text.size() && fmt_text[j] == '*') {
                u64 p = 0;
                if (!next_arg(4, p)) return false;
                if (std::int32_t(p) >= 0) (spec += '.') += std::to_string(std::int32_t(p));  // negative: as if none
                ++j;
            } else {
                spec.push_back('.');
                while (j < fmt_text.size() && std::isdigit((unsigned char)fmt_text[j])) spec.push_back(fmt_text[j++]);
            }
        }
        std::string len;
        while (j < fmt_text.size() && std::strchr("hlLzjt", fmt_text[j])) len.push_back(fmt_text[j++]);
        if (j >= fmt_text.size()) break;
        const char conv = fmt_text[j];
        const bool wide = len.find('l') != std::string::npos || len == "z" || len == "j" || len == "t" || conv == 'p' ||
                          conv == 's' || std::strchr("eEfFgGaA", conv);
        u64 v = 0;
        if (!next_arg(wide ? 8 : 4, v)) return false;
        char buf[512];
        if (std::strchr("eEfFgGaA", conv)) {
            std::snprintf(buf, sizeof buf, (spec + conv).c_str(), std::bit_cast<double>(v));
        } else if (conv == 's') {
            std::string s;
            if (!read_string(t, in, v, s)) return false;
            std::snprintf(buf, sizeof buf, (spec + 's').c_str(), s.c_str());
        } else if (conv == 'p') {
            std::snprintf(buf, sizeof buf, "%#llx", (unsigned long long)v);
        } else if (conv == 'c') {
            std::snprintf(buf, sizeof buf, (spec + 'c').c_str(), int(v & 0xff));
        } else if (std::strchr("di", conv)) {
            std::snprintf(buf, sizeof buf, (spec + "lld").c_str(), wide ? (long long)v : (long long)std::int32_t(v));
        } else if (std::strchr("uxXo", conv)) {
            std::snprintf(buf, sizeof buf, (spec + "ll" + conv).c_str(),
                          wide ? (unsigned long long)v : (unsigned long long)u32(v));
        } else {
            std::snprintf(buf, sizeof buf, "%s", (spec + len + conv).c_str());
        }
        out += buf;
        i = j;
    }
    return true;
}

// Into the launch's printf sink, up to its cap (then a line says the output was cut).
void BlockRunner::append_printf_output(const std::string& out) {
    std::lock_guard lock(L_.printf_mutex);
    std::string& sink = *L_.launch.printf_output;
    const std::string kCut = "[printf output truncated]\n";
    if (sink.size() >= L_.launch.printf_cap) return L_.printf_full.store(true);
    if (sink.size() + out.size() > L_.launch.printf_cap) {
        sink += out.substr(0, L_.launch.printf_cap - sink.size());
        sink += kCut;
        L_.printf_full.store(true);
        return;
    }
    sink += out;
}

// A failed assert(): __assertfail(message, file, line, ...) ends the block with the expression.
void BlockRunner::do_assert_fail(Group& g, Thread& t, const Instr& in) {
    const u64 text = call_param(g, t, in, 0);
    std::string expr;
    if (text && !read_string(t, in, text, expr)) return;
    fatal(DiagKind::kernel_exception, t, &in,
          fmt::format("{}: assertion `{}` failed at {}", thread_text(t), expr, where(&in)));
}

}  // namespace ptx::detail
