// BMD0 models: the builder's files read back node for node; the node tree comes from the SBC;
// bind poses decode per the note (T, pivot and full rotations, S with its inverse); one crafted
// corrupt input per BMD0 validation rule of nitro-models-and-anims.md section 8.
#include <catch2/catch.hpp>

#include "formats/nitro/bmd0_builder.h"
#include "formats/nitro/bmd0_format.h"
#include "model/validate.h"
#include "support/corrupt_input.h"

using namespace animdex;
using namespace animdex::nitro;

namespace {

// A rotation of 90 degrees about x in the pivot form: pivot 0 (m00 = 1), A = cos = 0, B = sin = 1,
// C = -B (flag bit 9), D = A.
NodeBindPose pivot_pose() {
  NodeBindPose pose;
  pose.flag = static_cast<std::uint16_t>(kNodeScaleOne | kNodePivotExists | (0 << 4) | (1 << 9) | (31 << 11));
  pose.translation = {4096, -2048, 8192};
  pose.rotation = NodeBindPose::Rotation::pivot;
  pose.rotation_values[0] = 0;
  pose.rotation_values[1] = 4096;
  return pose;
}

NodeBindPose matrix_pose() {
  NodeBindPose pose;
  pose.flag = kNodeTransZero;  // rotation as a full matrix, scale stored
  pose.rotation = NodeBindPose::Rotation::matrix;
  pose.m00 = 0;
  pose.rotation_values = {4096, 0, -4096, 0, 0, 0, 0, 4096};  // m01 m02 m10 m11 m12 m20 m21 m22: z by 90 degrees
  pose.scale = {8192, 4096, 2048};
  pose.inverse_scale = {2048, 4096, 8192};
  return pose;
}

Bmd0File three_node_file() {
  Bmd0File file;
  file.models.push_back(tree_model("door", {"world_root", "hinge", "handle"}, {-1, 0, 1}, {"wood", "metal"}));
  file.models[0].nodes[1].bind = pivot_pose();
  file.models[0].nodes[2].bind = matrix_pose();
  file.models[0].nodes[2].visible = false;
  file.models[0].sbc = sbc_for_nodes(file.models[0].nodes);
  file.models[0].shapes = {"polygon0"};
  return file;
}

}  // namespace

TEST_CASE("a built BMD0 model reads back: names, tree, visibility, bind poses", "[nitro][nsbmd]") {
  const auto bytes = write_bmd0(three_node_file());
  const auto parsed = parse_bmd0(bytes);
  REQUIRE(parsed.ok());
  const auto& file = parsed.value();
  CHECK(file.warnings.empty());
  REQUIRE(file.models.size() == 1);
  const Model& model = file.models[0];
  CHECK(model.name == "door");
  CHECK(model.materials == std::vector<std::string>{"wood", "metal"});
  CHECK(model.shapes == std::vector<std::string>{"polygon0"});
  REQUIRE(model.nodes.size() == 3);
  CHECK(model.nodes[0].name == "world_root");
  CHECK_FALSE(model.nodes[0].parent);  // the root names itself as parent
  CHECK(model.nodes[1].parent == 0);
  CHECK(model.nodes[2].parent == 1);
  CHECK_FALSE(model.nodes[1].visible);
  CHECK(model.nodes[2].visible == false);
  CHECK(write_bmd0(file) == bytes);

  SECTION("the pivot form decodes as BCA0's Rot3 with this flag's pivot and signs") {
    const Matrix3 m = model.nodes[1].bind.rotation_matrix();
    CHECK(m == Matrix3{1, 0, 0, 0, 0, 1, 0, -1, 0});
    CHECK(model.nodes[1].bind.translation == std::array<std::int32_t, 3>{4096, -2048, 8192});
  }
  SECTION("the full form is m00 then eight values; scale keeps its inverse") {
    CHECK(model.nodes[2].bind.rotation_matrix() == Matrix3{0, 1, 0, -1, 0, 0, 0, 0, 1});
    CHECK(model.nodes[2].bind.scale == std::array<std::int32_t, 3>{8192, 4096, 2048});
    CHECK(model.nodes[2].bind.inverse_scale == std::array<std::int32_t, 3>{2048, 4096, 8192});
  }
  SECTION("the model maps to rows of nitro_models, model_nodes and model_materials") {
    const auto mapped = bmd0_to_model(file);
    CHECK_FALSE(model::validate(mapped));
    CHECK(mapped.animations.empty());
    std::size_t nodes = 0, materials = 0;
    for (const auto& row : mapped.format_rows) {
      nodes += row.table == "model_nodes";
      materials += row.table == "model_materials";
    }
    CHECK(nodes == 3);
    CHECK(materials == 2);
  }
  SECTION("the pose is the bind pose, node by node, with names and parents") {
    PoseRequest request;
    request.frame = 0;
    const auto answer = bmd0_pose(bytes, request);
    REQUIRE(std::holds_alternative<Pose>(answer));
    const Pose& pose = std::get<Pose>(answer);
    REQUIRE(pose.rows.size() == 3);
    CHECK(std::get<std::string>(pose.rows[1][1]) == "hinge");
    CHECK(std::get<std::int64_t>(pose.rows[1][2]) == 0);
    CHECK(std::holds_alternative<std::monostate>(pose.rows[0][2]));
    CHECK(std::get<std::vector<double>>(pose.rows[1][3]) == std::vector<double>{1, -0.5, 2});
    CHECK(std::get<std::vector<double>>(pose.rows[2][5]) == std::vector<double>{2, 1, 0.5});
    request.animation = "window";
    const auto unknown = bmd0_pose(bytes, request);
    REQUIRE(std::holds_alternative<CapabilityError>(unknown));
    CHECK(std::get<CapabilityError>(unknown).message == "no animation named 'window'; it has: door");
  }
}

TEST_CASE("a BMD0 node without a NODEDESC has no parent and a warning", "[nitro][nsbmd]") {
  Bmd0File file = three_node_file();
  file.models[0].sbc = {0x06, 0, 0, 0, 0x06, 1, 0, 0, 0x01};  // node 2 never described
  const auto parsed = parse_bmd0(write_bmd0(file));
  REQUIRE(parsed.ok());
  CHECK_FALSE(parsed.value().models[0].nodes[2].parent);
  REQUIRE(parsed.value().warnings.size() == 1);
  CHECK(parsed.value().warnings[0] == "model 'door': node 2 has no NODEDESC (parent unknown)");
}

TEST_CASE("corrupt BMD0 files fail at the field with what was expected", "[nitro][nsbmd][corrupt]") {
  const auto good = write_bmd0(three_node_file());
  REQUIRE(parse_bmd0(good).ok());
  // Layout of the built file: header 0x10 + 4 (one block), MDL0 at 0x14, its model dictionary at
  // 0x1C (one entry: 8 + 8 tree + 4 + 4 data + 16 name = 40 bytes), the model at 0x44.
  const std::size_t mdl0 = 0x14, model = 0x44;
  REQUIRE(test::get(good, model + 0, 4, LE) > 0);
  auto patched = [&](std::size_t at, std::uint64_t value, int size) {
    auto bytes = good;
    test::put(bytes, at, value, size, LE);
    return parse_bmd0(bytes);
  };
  SECTION("magic") { test::expect_parse_error(patched(0, 0x30444D43, 4), "magic BMD0", 0); }
  SECTION("byte-order mark") { test::expect_parse_error(patched(4, 0xFFFE, 2), "byte-order mark", 4); }
  SECTION("header size") { test::expect_parse_error(patched(0x0C, 0x20, 2), "header size 16", 0x0C); }
  SECTION("file size past the end") { test::expect_parse_error(patched(8, good.size() + 1, 4), "file size at most", 8); }
  SECTION("no block") { test::expect_parse_error(patched(0x0E, 0, 2), "at least one block", 0x0E); }
  SECTION("block size outside the file") {
    test::expect_parse_error(patched(mdl0 + 4, good.size(), 4), "block size", mdl0 + 4);
  }
  SECTION("block magic") { test::expect_parse_error(patched(mdl0, 0x304C4458, 4), "block magic MDL0", mdl0); }
  SECTION("no model") { test::expect_parse_error(patched(mdl0 + 9, 0, 1), "model set dictionary with at least 1", mdl0 + 9); }
  SECTION("dictionary revision") { test::expect_parse_error(patched(mdl0 + 8, 1, 1), "dictionary revision 0", mdl0 + 8); }
  SECTION("model size outside MDL0") {
    test::expect_parse_error(patched(model, 0x10000, 4), "model 'door'", model);
  }
  SECTION("numNode differs from the node dictionary") {
    test::expect_parse_error(patched(model + 0x17, 4, 1), "numNode equal to the node dictionary's 3 entries", model + 0x17);
  }
  SECTION("a node record outside the model") {
    // The node dictionary's first data word (offset of node 0's record), after its header and tree.
    const std::size_t first_record = model + 0x40 + 8 + 4 * 4 + 4;
    test::expect_parse_error(patched(first_record, 0x10000, 4), "node 0 bind pose", first_record);
  }
  SECTION("an opcode outside the table") {
    const std::size_t sbc = model + test::get(good, model + 4, 4, LE);
    test::expect_parse_error(patched(sbc, 0x1F, 1), "an SBC opcode of the NitroSystem table", sbc);
  }
  SECTION("a NODEDESC node past numNode") {
    const std::size_t sbc = model + test::get(good, model + 4, 4, LE);
    test::expect_parse_error(patched(sbc + 1, 7, 1), "SBC NODEDESC node < the model's 3 nodes", sbc + 1);
  }
  SECTION("a NODEDESC parent past numNode") {
    const std::size_t sbc = model + test::get(good, model + 4, 4, LE);
    test::expect_parse_error(patched(sbc + 2, 3, 1), "SBC NODEDESC parent < the model's 3 nodes", sbc + 2);
  }
  SECTION("no RET before the model ends") {
    auto bytes = good;
    const std::size_t sbc = model + test::get(good, model + 4, 4, LE);
    const std::size_t end = model + test::get(good, model, 4, LE);
    for (std::size_t at = sbc; at < end; ++at) bytes[at] = std::byte{0};  // NOPs to the end
    test::expect_parse_error(parse_bmd0(bytes), "no RET before the model's end");
  }
  SECTION("a pivot position past 8") {
    // Node 1's record follows node 0's 4-byte identity record.
    const std::size_t record = model + 0x40 + test::get(good, model + 0x40 + 8 + 4 * 4 + 4 + 4, 4, LE);
    const auto flag = test::get(good, record, 2, LE);
    test::expect_parse_error(patched(record, (flag & ~0xF0u) | (9u << 4), 2), "node 1 pivot position 0..8", record);
  }
}
