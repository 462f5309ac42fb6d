#pragma once
// How a chart's channels share panels: a panel per channel group (`T.x`, `T.y`, `T.z` in `T`), each
// with its own value range, so a rotation in radians is not drawn flat by a translation in hundreds.
#include <string>
#include <vector>

#include "reports/curve_chart.h"

namespace animdex::reports {

// The panel a channel is drawn in: the part of its name before the first '.' ("T" of "T.x"), else
// the whole name (a LightWave channel has a panel of its own).
std::string panel_of(const std::string& channel);

// A channel ten times larger than most of its group (GNT's twist angle in degrees beside an axis of
// unit length, a translation of 100 beside ones of 0.1) moves to a panel of its own, right after
// its group's, so the others are not drawn flat; constants stay (they are flat at any scale).
void split_outliers(std::vector<CurvePanel>& panels);

}  // namespace animdex::reports
