// Argument reading and usage errors shared by the N-API classes of the addon (program_library_napi.cc, device_buffer.cc, …): every
// wrong argument becomes TypeError("usage: <signature> — <what is wrong>") before any native code runs.
#pragma once

#include <napi.h>

#include <cmath>
#include <cstdint>
#include <string>

namespace tlab {

[[noreturn]] inline void ThrowUsage(Napi::Env env, const char *usage, const std::string &problem) {
  throw Napi::TypeError::New(env, std::string("usage: ") + usage + " — " + problem);
}

inline std::string Describe(const Napi::Value &value) {
  if (value.IsUndefined()) return "undefined";
  if (value.IsNull()) return "null";
  if (value.IsBoolean()) return "a boolean";
  if (value.IsNumber()) {
    const double number = value.As<Napi::Number>().DoubleValue();
    return std::isfinite(number) ? "the number " + Napi::Number::New(value.Env(), number).ToString().Utf8Value()
                                 : "a non-finite number";
  }
  if (value.IsBigInt()) return "a bigint";
  if (value.IsString()) return "a string";
  if (value.IsTypedArray()) {
    switch (value.As<Napi::TypedArray>().TypedArrayType()) {
      case napi_int8_array: return "an Int8Array";
      case napi_uint8_array: return "a Uint8Array";
      case napi_uint8_clamped_array: return "a Uint8ClampedArray";
      case napi_int16_array: return "an Int16Array";
      case napi_uint16_array: return "a Uint16Array";
      case napi_int32_array: return "an Int32Array";
      case napi_uint32_array: return "a Uint32Array";
      case napi_float32_array: return "a Float32Array";
      case napi_float64_array: return "a Float64Array";
      case napi_bigint64_array: return "a BigInt64Array";
      case napi_biguint64_array: return "a BigUint64Array";
      default: return "a typed array";
    }
  }
  if (value.IsDataView()) return "a DataView";
  if (value.IsArray()) return "an array";
  if (value.IsArrayBuffer()) return "an ArrayBuffer (pass a view of it, e.g. new Uint8Array(buffer))";
  if (value.IsFunction()) return "a function";
  return "an object";
}

struct ByteView {
  uint8_t *data;
  size_t length;
};

// nullopt-like: returns false when `value` is not a usable ArrayBufferView.
inline bool ReadView(const Napi::Value &value, ByteView *view, std::string *why) {
  Napi::ArrayBuffer buffer;
  size_t offset = 0;
  if (value.IsTypedArray()) {
    const auto typed = value.As<Napi::TypedArray>();
    buffer = typed.ArrayBuffer();
    offset = typed.ByteOffset();
    view->length = typed.ByteLength();
  } else if (value.IsDataView()) {
    const auto dataView = value.As<Napi::DataView>();
    buffer = dataView.ArrayBuffer();
    offset = dataView.ByteOffset();
    view->length = dataView.ByteLength();
  } else {
    *why = "expected an ArrayBufferView (typed array or DataView), got " + Describe(value);
    return false;
  }
  if (buffer.IsDetached()) {
    *why = "its ArrayBuffer is detached (transferred or freed)";
    return false;
  }
  view->data = static_cast<uint8_t *>(buffer.Data()) + offset;
  return true;
}

template <typename Element>
Element *ReadTypedArray(const Napi::Value &value, napi_typedarray_type type, const char *typeName,
                        const char *usage, const char *argumentName, size_t *length) {
  if (!value.IsTypedArray() || value.As<Napi::TypedArray>().TypedArrayType() != type) {
    ThrowUsage(value.Env(), usage, std::string(argumentName) + " must be a " + typeName + ", got " + Describe(value));
  }
  ByteView view{};
  std::string why;
  if (!ReadView(value, &view, &why)) ThrowUsage(value.Env(), usage, std::string(argumentName) + ": " + why);
  *length = view.length / sizeof(Element);
  return reinterpret_cast<Element *>(view.data);
}

inline std::string ReadStorage(const Napi::Value &value, const char *usage) {
  if (!value.IsString()) ThrowUsage(value.Env(), usage, "storage must be a string such as 'CPU_Heap', got " + Describe(value));
  std::string storage = value.As<Napi::String>().Utf8Value();
  if (storage.empty() || storage.find('\0') != std::string::npos) {
    ThrowUsage(value.Env(), usage, "storage must be a non-empty storage type name without NUL characters");
  }
  return storage;
}

inline double ReadInteger(const Napi::Value &value, const char *usage, const char *argumentName, double min, double max) {
  const bool isInteger = value.IsNumber() && std::isfinite(value.As<Napi::Number>().DoubleValue()) &&
                         std::floor(value.As<Napi::Number>().DoubleValue()) == value.As<Napi::Number>().DoubleValue();
  const double number = isInteger ? value.As<Napi::Number>().DoubleValue() : 0;
  if (!isInteger || number < min || number > max) {
    ThrowUsage(value.Env(), usage,
               std::string(argumentName) + " must be an integer between " + std::to_string(static_cast<uint64_t>(min)) +
                   " and " + std::to_string(static_cast<uint64_t>(max)) + ", got " + Describe(value));
  }
  return number;
}

inline void ExpectArgumentCount(const Napi::CallbackInfo &info, size_t count, const char *usage) {
  if (info.Length() != count) {
    ThrowUsage(info.Env(), usage,
               "expected " + std::to_string(count) + " argument" + (count == 1 ? "" : "s") + ", got " +
                   std::to_string(info.Length()));
  }
}

inline std::string SymbolList(const int64_t *symbols, size_t count) {
  std::string list = "[";
  for (size_t i = 0; i < count; ++i) list += (i ? ", " : "") + std::to_string(symbols[i]);
  return list + "]";
}

}  // namespace tlab
