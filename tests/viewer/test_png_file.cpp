// The screenshots' PNG writer (viewer/core/png_file.h): what it writes reads back, pixel for
// pixel, through another decoder (stb_image, which the image checks use), at widths whose rows
// the Sub filter wraps and with every byte value in every channel.
#include <catch2/catch.hpp>

#include <stb_image.h>

#include <cstdio>
#include <filesystem>
#include <string>
#include <vector>

#include <unistd.h>

#include "viewer/core/png_file.h"

using stencil::viewer::write_png;

TEST_CASE("png file: the pixels written read back the same", "[viewer]") {
    const int w = GENERATE(1, 37, 256), h = GENERATE(1, 5);
    std::vector<unsigned char> rgba(std::size_t(w) * h * 4);
    for (std::size_t i = 0; i < rgba.size(); ++i) rgba[i] = static_cast<unsigned char>((i * 97 + i / 7) & 0xff);
    const std::string path = (std::filesystem::temp_directory_path() /
                              ("stencil-png-" + std::to_string(::getpid()) + ".png")).string();
    REQUIRE(write_png(path, w, h, rgba.data()));
    int rw = 0, rh = 0, channels = 0;
    unsigned char* back = stbi_load(path.c_str(), &rw, &rh, &channels, 4);
    REQUIRE(back != nullptr);
    CHECK(rw == w);
    CHECK(rh == h);
    CHECK(channels == 4);
    CHECK(std::vector<unsigned char>(back, back + rgba.size()) == rgba);
    stbi_image_free(back);
    std::remove(path.c_str());
}

TEST_CASE("png file: an empty image or a folder that cannot be written is false", "[viewer]") {
    const unsigned char px[4] = {1, 2, 3, 4};
    CHECK_FALSE(write_png("/nonexistent-folder/x.png", 1, 1, px));
    CHECK_FALSE(write_png((std::filesystem::temp_directory_path() / "stencil-empty.png").string(), 0, 1, px));
}
