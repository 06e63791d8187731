"""The Discord adapter, in layers that import one way only:

components (the DynamicItems and their custom_id protocol) <- present (a Reply as messages and one
view builder) <- status (the status message and nudges) <- flows (a slash command or a click through
the manager) <- app (the bot: command tree, setup). A component's callback reaches its flow through
`interaction.client.flows`, so no layer below imports one above.
"""
