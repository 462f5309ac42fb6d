#pragma once
// Writes BMD0 model files from the parser's structs (tests, the sample): header, MDL0 with the model
// dictionary, each model's header, node dictionary, bind-pose records (in node order, no gaps, as
// the converter writes them), SBC, material and shape dictionaries. Material and shape data are
// not written (their offsets point at the dictionaries' own start); no TEX0 block.
#include "formats/nitro/bmd0_parser.h"
#include "formats/nitro/nitro_writer.h"

namespace animdex::nitro {

Bytes write_bmd0(const Bmd0File& file);

// The structure byte code of a node tree: NODE (with `visible` where set) and NODEDESC per node in
// order, then RET. Used when a model's `sbc` is empty.
std::vector<std::uint8_t> sbc_for_nodes(const std::vector<ModelNode>& nodes);

// A model whose node k has `names[k]` and parent `parents[k]` (-1: the root), identity bind poses.
Model tree_model(const std::string& name, const std::vector<std::string>& names, const std::vector<int>& parents,
                 const std::vector<std::string>& materials = {});

}  // namespace animdex::nitro
