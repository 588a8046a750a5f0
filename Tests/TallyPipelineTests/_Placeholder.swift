// placeholder until the first tests land.
