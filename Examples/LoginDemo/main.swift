print("LoginDemo placeholder")
