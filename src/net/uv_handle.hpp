#pragma once
// Ownership of libuv handles: an owner struct embeds the handle and is held by
// a std::unique_ptr while in use. Closing hands the ownership to libuv (via
// handle->data) because libuv may touch the handle until the close callback;
// the close callback takes it back and frees the owner.
#include <uv.h>

#include <memory>

namespace eryantis::net::detail {

template <class Owner>
void close_and_free(std::unique_ptr<Owner> owner, uv_handle_t* handle) {
  // A handle already closing was closed by someone else (a defensive walk);
  // freeing now could race its callback, so the owner is leaked instead.
  if (uv_is_closing(handle)) {
    static_cast<void>(owner.release());
    return;
  }
  handle->data = owner.release();
  uv_close(handle, [](uv_handle_t* closed) {
    std::unique_ptr<Owner> reclaimed(static_cast<Owner*>(closed->data));
  });
}

template <class Handle>
uv_handle_t* as_handle(Handle* handle) {
  return reinterpret_cast<uv_handle_t*>(handle);
}

template <class Handle>
uv_stream_t* as_stream(Handle* handle) {
  return reinterpret_cast<uv_stream_t*>(handle);
}

}  // namespace eryantis::net::detail
