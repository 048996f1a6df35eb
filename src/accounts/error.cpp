#include "eryantis/accounts/error.hpp"

namespace eryantis::accounts {

std::string_view code_name(AccountErrorCode code) {
  switch (code) {
    case AccountErrorCode::BadText: return "BAD_TEXT";
    case AccountErrorCode::NameLength: return "NAME_LENGTH";
    case AccountErrorCode::NameCharacter: return "NAME_CHARACTER";
    case AccountErrorCode::NameReserved: return "NAME_RESERVED";
    case AccountErrorCode::PasswordLength: return "PASSWORD_LENGTH";
    case AccountErrorCode::HashFailed: return "HASH_FAILED";
    case AccountErrorCode::Busy: return "BUSY";
    case AccountErrorCode::InviteMalformed: return "INVITE_MALFORMED";
    case AccountErrorCode::InviteUnknown: return "INVITE_UNKNOWN";
    case AccountErrorCode::InviteExpired: return "INVITE_EXPIRED";
    case AccountErrorCode::InviteUsedUp: return "INVITE_USED_UP";
    case AccountErrorCode::InviteRevoked: return "INVITE_REVOKED";
    case AccountErrorCode::BadInvite: return "BAD_INVITE";
    case AccountErrorCode::ChatEmpty: return "CHAT_EMPTY";
    case AccountErrorCode::ChatTooLong: return "CHAT_TOO_LONG";
    case AccountErrorCode::ChatControl: return "CHAT_CONTROL";
    case AccountErrorCode::RateLimited: return "RATE_LIMITED";
    case AccountErrorCode::BadConfig: return "BAD_CONFIG";
  }
  return "BAD_TEXT";
}

}  // namespace eryantis::accounts
