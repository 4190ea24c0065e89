// SPDX-License-Identifier: GPL-3.0-or-later
// read_input_file: regular files are read whole; a folder, a device, a FIFO, a socket or
// nothing is refused by name, without blocking and before anything is read.
#include <sys/socket.h>
#include <sys/stat.h>
#include <sys/un.h>
#include <unistd.h>

#include <cstring>
#include <filesystem>
#include <string>

#include <gtest/gtest.h>

#include "substruct/core/input_file.hpp"
#include "support/temp_dir_test.hpp"

namespace substruct {
namespace {

namespace fs = std::filesystem;

class InputFile : public testing::TempDirTest {};

TEST_F(InputFile, ReadsARegularFileAndALinkToOneWhole) {
  std::string text(200000, 'x');  // more than one read's buffer
  text += "\nend";
  const fs::path file = write("a.txt", text);
  EXPECT_EQ(read_input_file(file, "test file"), text);
  fs::create_symlink(file, dir() / "link.txt");
  EXPECT_EQ(read_input_file(dir() / "link.txt", "test file"), text);
  EXPECT_EQ(read_input_file(write("empty.txt", ""), "test file"), "");
  EXPECT_EQ(non_regular_kind(file), "");
}

TEST_F(InputFile, RefusesADirectoryByName) {
  fs::create_directory(dir() / "d.ini");
  EXPECT_EQ(testing::error_message([&] { read_input_file(dir() / "d.ini", "scene file"); }),
            "cannot read scene file '" + (dir() / "d.ini").string() + "': it is a directory");
  EXPECT_EQ(non_regular_kind(dir() / "d.ini"), "a directory");
}

TEST_F(InputFile, RefusesDevicesAndLinksToThem) {
  EXPECT_EQ(testing::error_message([] { read_input_file("/dev/zero", "mesh"); }),
            "cannot read mesh '/dev/zero': it is a character device");
  fs::create_symlink("/dev/urandom", dir() / "m.veg");
  EXPECT_EQ(
      testing::error_message([&] { require_input_file(dir() / "m.veg", "Vega mesh file"); }),
      "cannot read Vega mesh file '" + (dir() / "m.veg").string() + "': it is a character device");
}

TEST_F(InputFile, RefusesAFifoWithoutWaitingForAWriter) {
  const fs::path fifo = dir() / "f.bou";
  ASSERT_EQ(::mkfifo(fifo.c_str(), 0600), 0) << std::strerror(errno);
  // With no writer a blocking open would never return: this test would hang.
  EXPECT_EQ(testing::error_message([&] { read_input_file(fifo, "fixed-vertex file"); }),
            "cannot read fixed-vertex file '" + fifo.string() + "': it is a FIFO");
}

TEST_F(InputFile, RefusesASocket) {
  const fs::path path = dir() / "s.obj";
  const int fd = ::socket(AF_UNIX, SOCK_STREAM, 0);
  ASSERT_GE(fd, 0);
  sockaddr_un address{};
  address.sun_family = AF_UNIX;
  ASSERT_LT(path.string().size(), sizeof address.sun_path);
  std::strcpy(address.sun_path, path.c_str());
  ASSERT_EQ(::bind(fd, reinterpret_cast<sockaddr*>(&address), sizeof address), 0);
  const std::string message = testing::error_message([&] { read_input_file(path, "obj"); });
  ::close(fd);
  EXPECT_EQ(message, "cannot read obj '" + path.string() + "': it is a socket");
}

TEST_F(InputFile, NamesAMissingFile) {
  EXPECT_EQ(testing::error_message([&] { read_input_file(dir() / "no.veg", "Vega mesh file"); }),
            "cannot open Vega mesh file '" + (dir() / "no.veg").string() +
                "': No such file or directory");
  EXPECT_EQ(non_regular_kind(dir() / "no.veg"), "");
}

}  // namespace
}  // namespace substruct
