#include <iostream>

#include "cli/cli.h"

int main(int argc, char** argv) { return animdex::run_cli(argc, argv, std::cout); }
