"""Bearer tokens (admin only): create, list, revoke."""
# No `from __future__ import annotations`: FastAPI must see the route annotations as real objects.

from typing import Annotated

from fastapi import APIRouter, Path

from recorder.api.deps import Admin, Book
from recorder.api.errors import responses
from recorder.api.models import Revoked, TokenCreated, TokenIn, TokenList
from recorder.errors import BadRequest
from recorder.log.inputs import MAX_SEQ  # token ids are INTEGER columns too

router = APIRouter(prefix="/tokens", tags=["tokens"])


@router.post("", status_code=201, summary="Create a token (admin)",
    response_description="Created: the token, shown this once", responses=responses(400, 401, 403, 413))
def create_token(sb: Book, body: TokenIn, _: Admin) -> TokenCreated:
    return TokenCreated(name=body.name, role=body.role, token=sb.create_token(body.name, body.role))


@router.get("", summary="List tokens (admin)", responses=responses(401, 403))
def tokens(sb: Book, _: Admin) -> TokenList:
    return TokenList.model_validate({"tokens": sb.list_tokens()})


@router.delete(
    "/{token_id}",
    summary="Revoke a token (admin)",
    responses=responses(400, 401, 403, s400="No active token with this id, or an id that is not an integer"),
)
def revoke(
    sb: Book, token_id: Annotated[int, Path(ge=1, le=MAX_SEQ, description="a token's id (GET /api/tokens)")], _: Admin
) -> Revoked:
    if not sb.revoke_token(token_id):
        raise BadRequest(f"no active token {token_id}")
    return Revoked(revoked=token_id)
