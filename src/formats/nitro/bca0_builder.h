#pragma once
// Builds NSBCA channels and rotation-table entries from numbers, for the sample dump and the tests.
#include <vector>

#include "core/rotation.h"
#include "formats/nitro/bca0_types.h"

namespace animdex::nsbca {

std::int32_t to_fx(double value);  // round(value * 4096)

AxisChannel identity_axis();
AxisChannel base_axis();
AxisChannel constant_axis(double value, bool is_scale);
// `values` are the samples to store (sample_count(frame_count, step) of them); LAST_INTERP is set
// as the runtime expects (frame_count for step 1, else floor((frame_count-1)/step)*step).
AxisChannel animated_axis(const std::vector<double>& values, int frame_count, int step, bool fx16, bool is_scale);

RotationChannel identity_rotation();
RotationChannel base_rotation();
RotationChannel constant_rotation(std::uint16_t index);
RotationChannel animated_rotation(const std::vector<std::uint16_t>& indices, int frame_count, int step);

// Rot5 entry of an orthonormal matrix (rows 0 and 1 quantised to 1/4096; row 2 is implied).
Rot5Entry encode_rot5(const Matrix3& rows);
// Rot3 entry: pivot position 0..8 with sign, and the remaining 2x2 [A B; C D] as C = +-B, D = +-A.
Rot3Entry encode_rot3(int pivot, bool pivot_negative, double a, double b, bool c_negative, bool d_negative);

// A rotation of `degrees` about the z axis, in the DS row-vector layout.
Matrix3 rotation_about_z(double degrees);

}  // namespace animdex::nsbca
