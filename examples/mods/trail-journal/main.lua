-- Trail Journal: a legacy Lua mod, written against the Lua engine's `mod` API and run
-- unmodified by Pallet's compat shim (see docs/modding-lua.md).
--
-- It uses the shapes most surveyed mods use:
--   * the entry returns `function(mod) ... end`;
--   * `mod.options:define` rows, read live with `mod.options:get` inside the callbacks;
--   * `mod.log:info` with printf-style arguments (`%d`, `%s`);
--   * `mod.events:on(name, fn)` listeners (`map.entered`, `battle.ended`);
--   * an `encounter.roll` wrapper `(next, encDef, ctx)` that calls `next()` (no arguments:
--     continue with the current ones) and hands vanilla's answer back unchanged, so the game
--     plays exactly as without the mod;
--   * `mod.save:get/set` counters, which travel with the save (`modData["trail-journal"]`).

return function(mod)
  mod.options:define({
    {
      key = "detail",
      label = "Journal detail",
      type = "choice",
      default = "full",
      choices = {
        { label = "Everything", value = "full" },
        { label = "Places only", value = "places" },
      },
    },
  })

  local function full()
    return mod.options:get("detail") ~= "places"
  end

  local places = mod.save:get("places", 0)
  local seen = {}

  mod.events:on("map.entered", function(ev)
    if seen[ev.mapId] then
      return
    end
    seen[ev.mapId] = true
    places = places + 1
    mod.save:set("places", places)
    mod.log:info("first visit: %s (places visited: %d)", ev.mapId, places)
  end)

  mod.hooks:wrap("encounter.roll", function(next, encDef, ctx)
    local enc = next()
    if enc ~= nil and full() then
      mod.log:info("wild %s (L%d) in the %s of %s", enc.species, enc.level, ctx.terrain, ctx.mapId)
    end
    return enc
  end)

  local tally = { win = 0, lose = 0, run = 0, caught = 0, draw = 0 }
  mod.events:on("battle.ended", function(ev)
    tally[ev.result] = (tally[ev.result] or 0) + 1
    if full() then
      mod.log:info("battles: %d won, %d lost, %d fled, %d caught", tally.win, tally.lose, tally.run, tally.caught)
    end
  end)
end
