print("tally")
