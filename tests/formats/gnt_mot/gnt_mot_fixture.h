#pragma once
// A .mot laid out by hand, byte by byte, independently of the writer (format note layout):
//   0x00 MOT header: 0, N=2, 0x10, size 0xB0
//   0x10 slot table: slot 0 -> 0x20, slot 1 empty; 0x18..0x20 zero padding
//   0x20 GNTA (ID 0): B=2, 0x10, play speed 0.125, end time 0.5
//   0x30 bone 0 header: flags1 0x0202, track 0x28 (ROTATE|ENABLED), bone 0x76, K=3, total 0.5,
//        times at +0x50, coordinates at +0x60
//   0x50 bone 1 header: flags1 0x0000 (time only), track 0x20, bone 0xFFFF, K=1, times at +0x80
//   0x70 bone 0 times (0, 1 frame, 30 frames), 4 junk bytes 0xAB
//   0x80 bone 0 coordinates (3 keys x 4 x 16-bit), 8 junk bytes 0xEE
//   0xA0 bone 1 time (2 frames), 12 zero bytes
#include <cstdint>
#include <vector>

#include "core/byte_writer.h"

namespace animdex::test {

inline std::vector<std::byte> handmade_mot() {
  ByteWriter w;
  const auto be = Endian::big;
  w.u32(0, be); w.u32(2, be); w.u32(0x10, be); w.u32(0xB0, be);
  w.u32(0x20, be); w.u32(0, be); w.zeros(8);
  // GNTA header
  w.u16(0, be); w.u16(2, be); w.u32(0x10, be); w.f32(0.125F, be); w.f32(0.5F, be);
  // bone 0 header
  w.u16(0x0202, be); w.u16(0x28, be); w.u16(0x76, be); w.u16(3, be); w.f32(0.5F, be); w.u32(0, be);
  w.u32(0x50, be); w.u32(0x60, be); w.u32(0, be); w.u32(0, be);
  // bone 1 header
  w.u16(0x0000, be); w.u16(0x20, be); w.u16(0xFFFF, be); w.u16(1, be); w.f32(0.0333333351F, be); w.u32(0, be);
  w.u32(0x80, be); w.u32(0, be); w.u32(0, be); w.u32(0, be);
  // bone 0 times + junk
  w.u32(0x00000000, be); w.u32(0x3C888889, be); w.u32(0x3F000000, be);
  for (int i = 0; i < 4; ++i) w.u8(0xAB);
  // bone 0 coordinates + junk
  for (std::uint16_t v : {0x4048, 0x3C93, 0x404E, 0x8000, 0x3F80, 0xBF80, 0x0000, 0x42B4, 0, 0, 0, 0}) w.u16(v, be);
  for (int i = 0; i < 8; ++i) w.u8(0xEE);
  // bone 1 time + padding
  w.u32(0x3D088889, be);
  w.zeros(12);
  return w.take();
}

}  // namespace animdex::test
