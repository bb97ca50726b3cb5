# Built by `npm run build:native` (node-gyp through npm, which supplies the Node headers).
# Output: native/build/Release/transient_native.node
{
  'targets': [
    {
      'target_name': 'transient_native',
      'sources': ['src/addon.cc', 'src/program_library_napi.cc', 'src/program_library_gpu_napi.cc', 'src/library_loader.cc', 'src/call_loop.cc', 'src/event_sampler.cc', 'src/progress_file.cc', 'src/cuda_devices.cc', 'src/cuda_devices_napi.cc', 'src/device_buffer.cc', 'src/interpose.cc', 'src/got_patch.cc', 'src/interpose_napi.cc', 'src/sequence_loop.cc', 'src/sequence_napi.cc', 'src/ffi_program.cc', 'src/dace_library_napi.cc', 'src/call_stats_napi.cc'],
      'include_dirs': ['include'],
      # node_addon_api_except: C++ exceptions on (NAPI_CPP_EXCEPTIONS), the one exception mode we use.
      'dependencies': ["<!(node -p \"require('node-addon-api').targets\"):node_addon_api_except"],
      'defines': ['NAPI_VERSION=8', 'NODE_ADDON_API_DISABLE_DEPRECATED'],
      'cflags_cc!': ['-std=gnu++17', '-fno-exceptions'],
      'cflags_cc': ['-std=c++17', '-fexceptions', '-fstack-protector-strong', '-Wall', '-Wextra', '-O2'],
      'libraries': ['-ldl'],
      # libffi calls DaCe-built libraries by their own signatures (docs/dace-folders.md). Without libffi-dev the
      # addon still builds, and loadDace() refuses with "install libffi-dev".
      'conditions': [
        ['<!(sh has-ffi.sh)==1', {'defines': ['TLAB_HAVE_FFI'], 'libraries': ['-lffi']}],
      ],
    },
  ],
}
