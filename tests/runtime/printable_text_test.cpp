// SPDX-License-Identifier: MIT
// printable_text, cut_text and quoted_text (prenet/printable_text.hpp): the one rule by which text from outside (an
// ONNX file's names, a command line's words, a device file's name) reaches errors, notes, JSON, tables and SVG.
#include <string>

#include <gtest/gtest.h>

#include <prenet/printable_text.hpp>

namespace {

using prenet::cut_text;
using prenet::first_unprintable;
using prenet::printable_text;
using prenet::quoted_text;

TEST(PrintableText, EscapesOnlyWhatIsNotPrintableUtf8) {
  for (const std::string kept :
       {"model.onnx", "модель.onnx", "a<b&c\"'.onnx", "€ \U0001F600 \u00a0 \u2028", "\\x41", ""}) {
    EXPECT_EQ(printable_text(kept), kept);
    EXPECT_EQ(first_unprintable(kept), std::string::npos);
  }
  EXPECT_EQ(printable_text("bad\xff\xfe.onnx"), "bad\\xff\\xfe.onnx");
  EXPECT_EQ(printable_text("ctl\x1b[31m\t\n\x7f"), "ctl\\x1b[31m\\x09\\x0a\\x7f");
  EXPECT_EQ(printable_text(std::string("a\0b", 3)), "a\\x00b");
  EXPECT_EQ(printable_text("\xc2\x9b" "1m"), "\\xc2\\x9b1m");                // C1 control (CSI)
  EXPECT_EQ(printable_text("\xc0\xaf"), "\\xc0\\xaf");                       // overlong '/'
  EXPECT_EQ(printable_text("\xed\xa0\x80"), "\\xed\\xa0\\x80");              // a UTF-16 surrogate
  EXPECT_EQ(printable_text("\xf4\x90\x80\x80"), "\\xf4\\x90\\x80\\x80");     // above U+10FFFF
  EXPECT_EQ(printable_text("\xe2\x82" "A\xe2\x82"), "\\xe2\\x82A\\xe2\\x82");  // cut short, twice
  EXPECT_EQ(first_unprintable("ok\xff"), 2U);
}

TEST(PrintableText, CutsBetweenCharactersNeverInsideOne) {
  EXPECT_EQ(cut_text("abcdef", 4), "abcd");
  EXPECT_EQ(cut_text("abc", 4), "abc");
  EXPECT_EQ(cut_text("aы", 2), "a");     // 'ы' is two bytes: cutting at 2 would keep half of it
  EXPECT_EQ(cut_text("aыb", 3), "aы");
  EXPECT_EQ(cut_text("\U0001F600", 3), "");
}

/// The CLI's and the importer's one-line quoting: printable first, then cut, "..." inside the closing quote.
TEST(PrintableText, QuotedTextIsPrintableQuotedAndCut) {
  EXPECT_EQ(quoted_text("resnet50"), "'resnet50'");
  EXPECT_EQ(quoted_text("t4\x1b[2J"), "'t4\\x1b[2J'");
  EXPECT_EQ(quoted_text(std::string(61, 'a')), "'" + std::string(60, 'a') + "...'");
  EXPECT_EQ(quoted_text(std::string(60, 'a')), "'" + std::string(60, 'a') + "'");
  std::string cyrillic = "a", kept = "'a";
  for (int i = 0; i < 40; ++i) cyrillic += "ы";
  for (int i = 0; i < 29; ++i) kept += "ы";
  EXPECT_EQ(quoted_text(cyrillic), kept + "...'");  // 59 bytes: the 30th 'ы' would end at byte 61
  EXPECT_EQ(quoted_text("abcdef", 3), "'abc...'");
}

}  // namespace
