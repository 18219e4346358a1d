//! The OpenAPI 3.1 document served at `/api/openapi.json`. A test checks that every
//! path it lists is routed; a new route must be added here by hand.

use serde_json::{Value, json};

fn error_response(description: &str) -> Value {
    json!({
        "description": description,
        "content": {"application/json": {"schema": {"$ref": "#/components/schemas/Error"}}}
    })
}

fn state_response(description: &str) -> Value {
    json!({
        "description": description,
        "content": {"application/json": {"schema": {"$ref": "#/components/schemas/GameState"}}}
    })
}

fn json_object(description: &str) -> Value {
    json!({"description": description,
           "content": {"application/json": {"schema": {"type": "object"}}}})
}

fn name_parameter() -> Value {
    json!({"name": "name", "in": "path", "required": true, "schema": {"type": "string"},
           "description": "The player's name."})
}

fn id_parameter() -> Value {
    json!({"name": "id", "in": "path", "required": true, "schema": {"type": "string"},
           "description": "The game's id."})
}

/// A seat action: POST with the seat's bearer token, no body, answers the state.
fn seat_action(summary: &str, conflict: &str) -> Value {
    json!({"post": {
        "summary": summary,
        "parameters": [id_parameter()],
        "security": [{"seat": []}],
        "responses": {
            "200": state_response("The game's state after the change."),
            "401": error_response("No token, or not a seat of this game."),
            "404": error_response("No such game."),
            "409": error_response(conflict),
        }
    }})
}

/// The whole document.
pub(crate) fn document() -> Value {
    let mut doc = games_document();
    if let (Some(paths), Value::Object(more)) =
        (doc["paths"].as_object_mut(), players_and_reports())
    {
        paths.extend(more);
    }
    doc
}

/// The players' and reports' paths (`players_routes.rs`).
fn players_and_reports() -> Value {
    json!({
            "/api/players": {"get": {
                "summary": "Players in registration order: results per game kind, Glicko-2 ratings, imported counts and totals.",
                "parameters": [{"name": "search", "in": "query", "schema": {"type": "string"},
                                "description": "Keep names containing this text, ignoring case."}],
                "responses": {"200": json_object("{\"players\": [...]}"),
                              "400": error_response("An unknown query parameter.")}}},
            "/api/players/standings": {"get": {
                "summary": "Standings: most wins first, then fewer losses, then name; with `game`, that kind's counts and rating.",
                "parameters": [{"name": "game", "in": "query", "schema": {"enum": ["chess", "xiangqi", "draughts", "chess3d"]}}],
                "responses": {"200": json_object("{\"game\", \"standings\": [...]}"),
                              "400": error_response("An unknown game.")}}},
            "/api/players/import": {"post": {
                "summary": "Import a player file (`Name_Won_Lost;` records): all or nothing; existing names are updated.",
                "requestBody": {"required": true, "content": {"application/json": {"schema": {
                    "type": "object", "required": ["text"], "additionalProperties": false,
                    "properties": {"text": {"type": "string"}}}}}},
                "responses": {"200": json_object("{\"records\", \"added\": [...], \"updated\": [...]}"),
                              "400": error_response("A bad record, named by number and reason; nothing imported."),
                              "413": error_response("The body is larger than the limit."),
                              "415": error_response("The body is not declared as JSON."),
                              "422": error_response("The JSON does not fit the schema.")}}},
            "/api/players/{name}": {
                "get": {"summary": "One player.",
                        "parameters": [name_parameter()],
                        "responses": {"200": json_object("The player."), "404": error_response("No such player.")}},
                "delete": {"summary": "Delete a player; their finished games keep the name.",
                           "parameters": [name_parameter()],
                           "responses": {"200": json_object("{\"deleted\": name}"), "404": error_response("No such player.")}}},
            "/api/reports/{kind}": {"get": {
                "summary": "A Graphviz report as DOT or SVG: board (sparse matrix of a board or chess3d level), linear (its squares as a linked list), players (binary search tree), top10.",
                "parameters": [
                    {"name": "kind", "in": "path", "required": true, "schema": {"enum": ["board", "linear", "players", "top10"]}},
                    {"name": "format", "in": "query", "schema": {"enum": ["dot", "svg"]}},
                    {"name": "game_id", "in": "query", "schema": {"type": "string"}},
                    {"name": "game", "in": "query", "schema": {"type": "string"}},
                    {"name": "variant", "in": "query", "schema": {"type": "string"}},
                    {"name": "position", "in": "query", "schema": {"type": "string"}},
                    {"name": "moves", "in": "query", "schema": {"type": "string"}},
                    {"name": "level", "in": "query", "schema": {"type": "integer", "minimum": 0, "maximum": 2}},
                    {"name": "order", "in": "query", "schema": {"enum": ["row", "column"]}}],
                "responses": {"200": {"description": "The report.",
                                      "content": {"text/vnd.graphviz": {"schema": {"type": "string"}},
                                                  "image/svg+xml": {"schema": {"type": "string"}}}},
                              "400": error_response("A bad parameter, game, position, move or level."),
                              "404": error_response("An unknown report or game id.")}}}
    })
}

/// Everything but the players and reports.
fn games_document() -> Value {
    let mut doc = api_document();
    add_board_fields(&mut doc);
    doc
}

/// What the web interface draws from: the board and move hints of the state, and the
/// positions of a game for reviewing it (kept apart: one `json!` would be too deep).
fn add_board_fields(doc: &mut Value) {
    let spot = json!({"$ref": "#/components/schemas/Spot"});
    let hint = json!({"$ref": "#/components/schemas/MoveHint"});
    let nullable_hint = json!({"oneOf": [hint, {"type": "null"}]});
    let board = json!({"$ref": "#/components/schemas/Board"});
    let schemas = &mut doc["components"]["schemas"];
    schemas["Spot"] = json!({
        "type": "array", "items": {"type": "integer", "minimum": 0}, "minItems": 3, "maxItems": 3,
        "description": "[level, x, y]: x from the left, y from the bottom, as the first side sees the board."});
    schemas["Board"] = json!({
        "type": "object", "required": ["width", "height", "levels", "pieces", "check", "numbers",
                     "column_labels", "row_labels", "names"],
        "description": "The position as a grid of pieces, for drawing it.",
        "properties": {
            "width": {"type": "integer"}, "height": {"type": "integer"}, "levels": {"type": "integer"},
            "pieces": {"type": "array", "items": {"type": "object", "required": ["at", "side", "kind"], "properties": {
                "at": spot, "side": {"type": "string"},
                "kind": {"type": "string", "description": "chess pnbrqk; xiangqi kabrncp; draughts m (man), k (king); chess3d pactdr"}}}},
            "check": {"oneOf": [spot, {"type": "null"}]},
            "numbers": {"type": "array", "items": spot,
                        "description": "Draughts: the spot of each square number, square 1 first."},
            "column_labels": {"type": "array", "items": {"type": "string"},
                              "description": "The columns' labels from the left (chess a…h, chess3d 1…8)."},
            "row_labels": {"type": "array", "items": {"type": "string"},
                           "description": "The rows' labels from the bottom (chess 1…8, xiangqi 0…9, chess3d A…H)."},
            "names": {"type": "array", "items": {"type": "array", "items": {"type": "array", "items": {"type": "string"}}},
                      "description": "names[level][y][x]: every spot's name in the game's notation (e4, e0, 0B5; draughts the square number, a1 on unplayable squares)."}}});
    schemas["MoveHint"] = json!({
        "type": "object", "required": ["move", "notation", "path", "captures", "promotion"],
        "properties": {
            "move": {"type": "string"}, "notation": {"type": "string"},
            "path": {"type": "array", "items": spot, "description": "The origin and every square the piece stops on."},
            "captures": {"type": "array", "items": spot},
            "promotion": {"type": ["string", "null"]}}});
    schemas["Position"] = json!({
        "type": "object", "required": ["ply", "position", "board", "last_move"],
        "properties": {"ply": {"type": "integer"}, "position": {"type": "string"},
                       "board": board, "last_move": nullable_hint}});
    let state = &mut schemas["GameState"]["properties"];
    state["board"] = board.clone();
    state["legal_moves"] = json!({"type": "array", "items": hint});
    state["last_move"] = nullable_hint;
    doc["paths"]["/api/games/{id}/positions/{ply}"] = json!({"get": {
        "summary": "The position after the first `ply` moves (0: the start), for reviewing a game.",
        "parameters": [id_parameter(), {"name": "ply", "in": "path", "required": true,
                                        "schema": {"type": "integer", "minimum": 0}}],
        "responses": {"200": {"description": "The position, its board and the move that led to it.",
                              "content": {"application/json": {"schema": {"$ref": "#/components/schemas/Position"}}}},
                      "404": error_response("No such game, or no such ply.")}}});
}

fn api_document() -> Value {
    let created = json!({
        "description": "The game was created: its id, the seat tokens the caller holds, for an online game the invitation for the other seat, and the state.",
        "content": {"application/json": {"schema": {"$ref": "#/components/schemas/Created"}}}
    });
    json!({
        "openapi": "3.1.0",
        "info": {
            "title": "tablero",
            "version": env!("CARGO_PKG_VERSION"),
            "description": "Chess, Chess960, xiangqi, draughts (six rule sets) and Ajedrez 3D: hot-seat, against the computer and online. Every error is a JSON body {\"error\": message, \"code\": stable id, \"params\": {...}}; a refused request changes nothing. Sides are named by the game (white/black; red/black in xiangqi)."
        },
        "components": {
            "securitySchemes": {
                "seat": {"type": "http", "scheme": "bearer",
                         "description": "A seat token from the create or import answer (or an invitation)."}
            },
            "schemas": {
                "Error": {"type": "object", "required": ["error", "code", "params"],
                          "properties": {
                              "error": {"type": "string", "description": "English, naming the bad value"},
                              "code": {"enum": error_codes(),
                                       "description": "stable id of the rule or limit (docs/api.md): translate by it"},
                              "params": {"type": "object",
                                         "description": "the code's named parameters, e.g. {\"required\": 2} for majority_capture",
                                         "additionalProperties": {"type": ["string", "integer"]}}}},
                "Player": {"type": "object", "additionalProperties": false,
                           "description": "A person (optional name: 1-32 letters, digits, '.' or '-') or the computer at a level.",
                           "maxProperties": 1,
                           "properties": {"name": {"type": "string", "minLength": 1, "maxLength": 32, "pattern": "^[A-Za-z0-9.-]+$"},
                                          "computer": {"type": "integer", "minimum": 1, "maximum": 10}}},
                "Seat": {"type": "object",
                         "description": "Who plays a side: {\"name\": string or null} or {\"computer\": level}.",
                         "properties": {"name": {"type": ["string", "null"]},
                                        "computer": {"type": "integer", "minimum": 1, "maximum": 10}}},
                "Clock": {"type": "object", "required": ["initial_ms"], "additionalProperties": false,
                          "properties": {
                              "kind": {"enum": ["fischer", "game"], "description": "game: chess3d's one clock for the whole game"},
                              "initial_ms": {"type": "integer", "minimum": 1000, "maximum": 86400000},
                              "increment_ms": {"type": "integer", "minimum": 0, "maximum": 600000}}},
                "NewGame": {"type": "object", "required": ["game"], "additionalProperties": false,
                            "properties": {
                                "game": {"enum": ["chess", "xiangqi", "draughts", "chess3d"]},
                                "variant": {"type": "string"},
                                "position": {"type": "string", "description": "FEN, xiangqi FEN, PDN FEN or chess3d position string"},
                                "players": {"type": "object", "additionalProperties": {"$ref": "#/components/schemas/Player"}},
                                "clock": {"$ref": "#/components/schemas/Clock"},
                                "mode": {"enum": ["hotseat", "computer", "online"]},
                                "side": {"type": "string", "description": "The creator's side in an online game."},
                                "seed": {"type": "string", "description": "Chess3d generator seed, hex."},
                                "chess960": {"type": "integer", "minimum": 0, "maximum": 959, "description": "Chess960 start number (default: one at random)."}}},
                "Import": {"type": "object", "required": ["game", "text"], "additionalProperties": false,
                           "properties": {
                               "game": {"enum": ["chess", "xiangqi", "draughts", "chess3d"]},
                               "variant": {"type": "string"},
                               "text": {"type": "string", "minLength": 1, "description": "PGN, PDN or the chess3d record"},
                               "index": {"type": "integer", "minimum": 1},
                               "players": {"type": "object", "additionalProperties": {"$ref": "#/components/schemas/Player"}},
                               "clock": {"$ref": "#/components/schemas/Clock"},
                               "mode": {"enum": ["hotseat", "computer", "online"]},
                               "side": {"type": "string"}}},
                "Created": {"type": "object", "required": ["id", "seats", "state"],
                            "properties": {
                                "id": {"type": "string"},
                                "seats": {"type": "object", "additionalProperties": {"type": "string"}},
                                "invite": {"type": ["object", "null"],
                                           "properties": {"side": {"type": "string"}, "token": {"type": "string"}, "path": {"type": "string"}}},
                                "state": {"$ref": "#/components/schemas/GameState"}}},
                "GameState": {"type": "object",
                              "required": ["id", "game", "variant", "mode", "position", "turn", "moves", "legal", "status", "outcome", "players", "clock", "version"],
                              "properties": {
                                  "id": {"type": "string"}, "game": {"type": "string"}, "variant": {"type": "string"},
                                  "mode": {"enum": ["hotseat", "computer", "online"]},
                                  "start_position": {"type": "string"}, "position": {"type": "string"},
                                  "turn": {"type": "string"},
                                  "moves": {"type": "array", "items": {"type": "object", "properties": {"move": {"type": "string"}, "notation": {"type": "string"}, "notation_zh": {"type": "string"}}}},
                                  "legal": {"type": "array", "items": {"type": "string"}},
                                  "status": {"enum": ["playing", "finished"]},
                                  "outcome": {"type": ["object", "null"], "properties": {
                                      "winner": {"type": ["string", "null"]}, "reason": {"type": "string"},
                                      "result": {"type": "string"}, "text": {"type": "string"}}},
                                  "players": {"type": "object", "additionalProperties": {"$ref": "#/components/schemas/Seat"}},
                                  "clock": {"type": ["object", "null"], "properties": {
                                      "kind": {"enum": ["fischer", "game"]}, "initial_ms": {"type": "integer"},
                                      "increment_ms": {"type": "integer"},
                                      "remaining_ms": {"type": "object", "additionalProperties": {"type": "integer"}},
                                      "running": {"type": ["string", "null"]}}},
                                  "draw_offer": {"type": ["string", "null"]},
                                  "takeback_request": {"type": ["string", "null"]},
                                  "claimable_draw": {"type": ["string", "null"]},
                                  "seed": {"type": ["string", "null"]},
                                  "chess960_start": {"type": "integer", "description": "A Chess960 game's start number (absent for other games)."},
                                  "version": {"type": "integer"}}}
            }
        },
        "paths": {
            "/api/health": {"get": {"summary": "Liveness and the store's state: {\"status\": \"ok\", \"store\": \"writable\"}; while writes fail {\"status\": \"degraded\", \"store\": \"degraded\", \"cause\": \"full\" (or read-only, busy, io, other), \"error\": …}; \"store\": \"read-only\" under --read-only.", "responses": {"200": {"description": "The state."}}}},
            "/api/catalog": {"get": {"summary": "The games, their variants, side names, levels and clock kinds.",
                                     "responses": {"200": {"description": "The catalog."}}}},
            "/api/openapi.json": {"get": {"summary": "This document.", "responses": {"200": {"description": "OpenAPI 3.1."}}}},
            "/api/games": {
                "get": {"summary": "Games, most recently changed first.",
                        "parameters": [
                            {"name": "status", "in": "query", "schema": {"enum": ["playing", "finished"]}},
                            {"name": "limit", "in": "query", "schema": {"type": "integer", "minimum": 1, "maximum": 500}},
                            {"name": "offset", "in": "query", "schema": {"type": "integer", "minimum": 0, "maximum": 4294967295u64}}],
                        "responses": {"200": {"description": "{\"games\": [...]}", "content": {"application/json": {"schema": {"type": "object"}}}},
                                      "400": error_response("A bad query parameter.")}},
                "post": {"summary": "Create a game: hot-seat (both tokens to the creator), against the computer, or online (one token and an invitation).",
                         "requestBody": {"required": true, "content": {"application/json": {"schema": {"$ref": "#/components/schemas/NewGame"}}}},
                         "responses": {"201": created.clone(),
                                       "400": error_response("Malformed JSON, unknown game, variant, side or mode, bad position, level or clock."),
                                       "413": error_response("The body is larger than 64 KiB."),
                                       "415": error_response("The body is not declared as JSON."),
                                       "422": error_response("The JSON does not fit the schema: a missing or unknown field, a wrong type.")}}
            },
            "/api/games/import": {"post": {
                "summary": "Create a game from a PGN, PDN or chess3d record; it continues from its last position.",
                "requestBody": {"required": true, "content": {"application/json": {"schema": {"$ref": "#/components/schemas/Import"}}}},
                "responses": {"201": created,
                              "400": error_response("The file cannot be read, or a bad field."),
                              "413": error_response("The body is larger than 1 MiB."),
                              "415": error_response("The body is not declared as JSON."),
                              "422": error_response("The JSON does not fit the schema.")}}},
            "/api/analyse": {"post": {
                "summary": "The engine's evaluation and best lines of a position (a game, variant, start and moves, or a stored game up to a ply): for analysis boards. Time-capped and rate-limited per client; the players of a game in progress between people get no engine for it (a request with their seat token is refused).",
                "requestBody": {"required": true, "content": {"application/json": {"schema": {
                    "type": "object", "additionalProperties": false,
                    "properties": {
                        "game": {"type": "string"}, "variant": {"type": "string"},
                        "position": {"type": "string"},
                        "moves": {"type": "array", "items": {"type": "string"}},
                        "game_id": {"type": "string"},
                        "ply": {"type": "integer", "minimum": 0},
                        "movetime_ms": {"type": "integer", "minimum": 50, "maximum": 5000},
                        "multipv": {"type": "integer", "minimum": 1, "maximum": 5}}}}}},
                "responses": {
                    "200": json_object("`{turn, depth, nodes, lines: [{score, mate, pv, pv_notation}], outcome}`: scores in centipawns for the side to move, `mate` in moves (negative: being mated) or null; no lines when the game is over (`outcome` says how)."),
                    "400": error_response("A bad game, variant, position, move, time or line count."),
                    "404": error_response("No such game (game_id)."),
                    "409": error_response("A player (by the seat token sent) of a game in progress between people."),
                    "422": error_response("The JSON does not fit the schema."),
                    "429": error_response("Too many analyses from this address."),
                    "503": error_response("Every analyst is busy: retry.")}}},
            "/api/positions": {"post": {
                "summary": "A position's board, legal moves (with their squares), move list and result, without the engine: what an analysis board draws. The same body as /api/analyse without movetime_ms and multipv.",
                "requestBody": {"required": true, "content": {"application/json": {"schema": {"type": "object"}}}},
                "responses": {
                    "200": json_object("`{game, variant, start_position, position, turn, moves, board, legal_moves, last_move, outcome}` as in a game's state."),
                    "400": error_response("A bad game, variant, position or move."),
                    "404": error_response("No such game (game_id)."),
                    "422": error_response("The JSON does not fit the schema.")}}},
            "/api/games/{id}": {"get": {"summary": "The game's state.", "parameters": [id_parameter()],
                                        "responses": {"200": state_response("The state."), "404": error_response("No such game.")}}},
            "/api/games/{id}/moves": {"post": {
                "summary": "Play a move (move format or display notation) for the side of the token.",
                "parameters": [id_parameter()],
                "security": [{"seat": []}],
                "requestBody": {"required": true, "content": {"application/json": {"schema": {
                    "type": "object", "required": ["move"], "additionalProperties": false,
                    "properties": {"move": {"type": "string"}}}}}},
                "responses": {
                    "200": state_response("The state after the move (and it is stored)."),
                    "400": error_response("Malformed, ambiguous or illegal move; malformed JSON."),
                    "401": error_response("No token, or not a seat of this game."),
                    "403": error_response("The token's side tries to move the other side's pieces."),
                    "404": error_response("No such game."),
                    "409": error_response("Not this side's turn, or the game is over."),
                    "413": error_response("The body is larger than 64 KiB."),
                    "415": error_response("The body is not declared as JSON."),
                    "422": error_response("The JSON does not fit the schema.")}}},
            "/api/games/{id}/takeback": seat_action("Take back your last move: at once in hot-seat and computer games; online, a request (or the acceptance of the opponent's).", "Nothing to take back, or the game is over."),
            "/api/games/{id}/takeback/accept": seat_action("Accept the opponent's takeback request.", "No request pending."),
            "/api/games/{id}/takeback/decline": seat_action("Decline the opponent's takeback request.", "No request pending."),
            "/api/games/{id}/resign": seat_action("Resign.", "The game is over."),
            "/api/games/{id}/draw/offer": seat_action("Offer a draw (accepts a pending offer of the opponent). A computer opponent answers when it moves: it accepts when its evaluation says it stands worse, else its move declines.", "The game is over."),
            "/api/games/{id}/draw/accept": seat_action("Accept the opponent's draw offer.", "No offer pending."),
            "/api/games/{id}/draw/decline": seat_action("Decline the opponent's draw offer.", "No offer pending."),
            "/api/games/{id}/draw/claim": seat_action("Claim a draw on your turn (chess: threefold repetition, fifty moves).", "No draw to claim, or not your turn."),
            "/api/games/{id}/export": {"get": {"summary": "The game as PGN (chess, xiangqi), PDN (draughts) or the chess3d record.",
                                               "parameters": [id_parameter()],
                                               "responses": {"200": {"description": "The file: PGN for chess and xiangqi, PDN for draughts, the chess3d record.",
                                                                     "content": {"application/x-chess-pgn": {"schema": {"type": "string"}},
                                                                                 "text/plain": {"schema": {"type": "string"}}}},
                                                             "404": error_response("No such game.")}}},
            "/api/games/{id}/ws": {"get": {
                "summary": "WebSocket: the state on connect and after every change. A seat holder may send {\"move\": m} or {\"action\": a} (takeback, takeback-accept, takeback-decline, resign, draw-offer, draw-accept, draw-decline, draw-claim) with \"token\" in the message, ?token= or the Authorization header; a refusal comes back as {\"error\", \"status\"} to the sender only.",
                "parameters": [id_parameter(), {"name": "token", "in": "query", "schema": {"type": "string"}}],
                "responses": {"101": {"description": "Switching to WebSocket."},
                              "400": error_response("Not a WebSocket upgrade request, or a bad query."),
                              "404": error_response("No such game.")}}}
        }
    })
}

/// Every stable error code: the move refusals' rules, then the API's own.
fn error_codes() -> Vec<&'static str> {
    tablero_core::Refusal::CODES
        .iter()
        .chain(crate::error::API_CODES)
        .copied()
        .collect()
}
