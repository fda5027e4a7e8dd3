// A launch's trace as text, to cross a process boundary: the checker's runner records one block
// of a student's kernel on the PTX engine (checker/runner_cpu.cpp) and the viewer's stepper reads
// it back (viewer/core/student_trace.h). Only what the stepper needs travels: the launch shape, the
// sites (file, line, PTX instruction) and the access records.
//
//   stencil-lab trace 1
//   grid GX GY GZ block BX BY BZ
//   site LINE INSTRUCTION FILE          one per site, in site order (FILE may hold spaces)
//   a BLOCK THREAD INTERVAL SITE OCCURRENCE SEQ SPACE OP SIZE BUFFER OFFSET
//   end                                  (absent: the writer died midway; the reader refuses)
#pragma once
#include <string>
#include <string_view>

#include "core/engine_trace.h"

namespace engine {

std::string trace_to_text(const ExecReport& rep);
// Throws std::runtime_error naming the line that does not parse.
ExecReport trace_from_text(std::string_view text);

}  // namespace engine
