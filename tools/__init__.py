"""Developer tools kept out of the bot's packages (`tools.bench`: `playpost bench`)."""
