print("calport")
