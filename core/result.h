#pragma once
// A value or the ks::Error that kept it from being made, for file reading and
// writing that reports instead of throwing (a missing or damaged file is an
// everyday event, not an exception). Like C++23's std::expected<T, Error>, which
// the compilers we build with (g++ 12, clang 14) do not have.
#include <optional>
#include <utility>
#include <variant>

#include "core/error.h"

namespace ks {

template <class T>
class [[nodiscard]] Result {
 public:
  Result(T value) : state_(std::in_place_index<0>, std::move(value)) {}
  Result(Error error) : state_(std::in_place_index<1>, std::move(error)) {}

  bool ok() const noexcept { return state_.index() == 0; }
  explicit operator bool() const noexcept { return ok(); }

  // The value; throws the error for a caller that wants an exception after all.
  const T& value() const& {
    if (!ok()) throw std::get<1>(state_);
    return std::get<0>(state_);
  }
  T&& value() && {
    if (!ok()) throw std::get<1>(state_);
    return std::get<0>(std::move(state_));
  }
  // As std::expected's: the value (throws the error when there is none).
  const T& operator*() const& { return value(); }
  const T* operator->() const { return &value(); }
  // Only when !ok().
  const Error& error() const { return std::get<1>(state_); }

 private:
  std::variant<T, Error> state_;
};

// Success that has no value to give, or the error.
template <>
class [[nodiscard]] Result<void> {
 public:
  Result() = default;
  Result(Error error) : error_(std::move(error)) {}

  bool ok() const noexcept { return !error_; }
  explicit operator bool() const noexcept { return ok(); }
  // Only when !ok().
  const Error& error() const { return *error_; }

 private:
  std::optional<Error> error_;
};

}  // namespace ks
