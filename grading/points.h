// Points that add up: every share a platform shows is a whole number of the rubric's unit (one
// point, or a hundredth with "points": "hundredths"), counted in integers, so that the shares'
// maxima sum to the rubric's total exactly on every platform (Gradescope's tests, PrairieLearn's
// tests, Classroom's steps).
//   apportion   the total over weighted parts (the items, rescaled when the time item is left
//               out): each part's floor, then the units left over to the largest remainders
//               (Hamilton's method; ties to the earlier part)
//   split_even  one item's units over its tests: equal shares, the last ones one unit more
#pragma once
#include <vector>

#include "grading/rubric.h"

namespace stencil::grading {

std::vector<long long> apportion(long long units, const std::vector<double>& weights);
std::vector<long long> split_even(long long units, size_t parts);

// The rubric's unit in points (1 or 0.01) and a count of units as points.
double point_unit(const Rubric& r);
long long to_units(const Rubric& r, double points);  // rounded to the nearest unit
double to_points(const Rubric& r, long long units);

// Each item's maximum in units, in the rubric's order; 0 for the time item when it is left out
// (no GPU and "without_gpu": "rescale"), the others then scaled up to the total.
std::vector<long long> item_units(const Rubric& r, bool time_left_out);

}  // namespace stencil::grading
