# SPDX-License-Identifier: Apache-2.0
# -*- Python -*-
import os

import lit.formats
from lit.llvm import llvm_config
from lit.llvm.subst import ToolSubst

config.name = "MIPS"
config.test_format = lit.formats.ShTest(not llvm_config.use_lit_shell)
config.suffixes = [".mlir"]
config.test_source_root = os.path.dirname(__file__)
config.test_exec_root = os.path.join(config.mlir_obj_dir, "test")
config.excludes = ["CMakeLists.txt", "lit.cfg.py", "lit.site.cfg.py", "Inputs"]

llvm_config.use_default_substitutions()
llvm_config.with_environment("PATH", config.llvm_tools_dir, append_path=True)

tools = [
    ToolSubst("mips-opt", unresolved="fatal"),
    ToolSubst("mips-compile", unresolved="fatal"),
]
llvm_config.add_tool_substitutions(tools, [config.mips_tools_dir, config.llvm_tools_dir])
